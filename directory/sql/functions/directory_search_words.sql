-- The distinct words of three letters or more of `texts` (names, titles, sector names,
-- "about" texts, as written), normalised and with abbreviations written out, as the
-- lexicon (directory_search_learn) keeps them. ROWS 10 (a name has a few words, not the
-- default 1,000) lets the lexicon's updates probe its key per word instead of reading
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
