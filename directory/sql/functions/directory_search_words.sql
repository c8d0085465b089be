-- The distinct words of three letters or more of `texts` (names, titles, sectors, "about"
-- texts), normalised, abbreviations written out, as the lexicon keeps them. ROWS 10 (not
-- 1,000: a name has a few words) lets its updates probe its key per word instead of reading
-- every unnamed word. PL/pgSQL, as directory_fold (its caller passes a subquery).
CREATE OR REPLACE FUNCTION directory_search_words(texts text[]) RETURNS SETOF text
  LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE ROWS 10 AS $$
BEGIN
  RETURN QUERY
  SELECT DISTINCT w.word
  FROM unnest(texts) AS t(text),
       regexp_split_to_table(public.directory_search_expand(public.directory_search_normalize(t.text)),
                             '[ |]+') AS w(word)
  WHERE length(w.word) >= 3;
END $$;
