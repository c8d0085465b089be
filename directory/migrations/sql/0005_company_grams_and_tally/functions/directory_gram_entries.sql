-- The tier and similarity directory.search computes for each three-character term
-- of letters and digits in `search_text` (such a term never spans two names).
CREATE FUNCTION directory_gram_entries(search_text text, name_fold text)
  RETURNS TABLE (gram text, tier smallint, sim real)
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT grams.gram,
    (CASE WHEN strpos(search_text, chr(31) || grams.gram || chr(31)) > 0 THEN 0
          WHEN strpos(search_text, chr(31) || grams.gram) > 0 THEN 1 ELSE 2 END)::smallint,
    public.similarity(name_fold, grams.gram)
  FROM (SELECT DISTINCT substr(search_text, i, 3) AS gram
        FROM generate_series(1, length(search_text) - 2) AS i) AS grams
  WHERE grams.gram ~ '^[a-z0-9]{3}$'
$$;
