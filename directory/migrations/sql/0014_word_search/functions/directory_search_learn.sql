-- Adds the words of `texts` (names, titles, sector names, "about" texts, as written)
-- that directory_search_word lacks, with their variants. Known words cost one
-- primary-key probe each; new ones are written in order, so two writers never wait
-- for each other in opposite orders.
CREATE OR REPLACE FUNCTION directory_search_learn(texts text[]) RETURNS void
  LANGUAGE sql
BEGIN ATOMIC
  WITH words AS (
    SELECT DISTINCT w.word
    FROM unnest(texts) AS t(text),
         regexp_split_to_table(directory_search_expand(directory_search_normalize(t.text)),
                               '[ |]+') AS w(word)
    WHERE length(w.word) >= 3
  ), added AS (
    INSERT INTO directory_search_word (word, key)
    SELECT w.word, directory_search_key(w.word) FROM words w ORDER BY w.word
    ON CONFLICT DO NOTHING
    RETURNING word, key
  )
  INSERT INTO directory_search_variant (variant, word)
  SELECT DISTINCT v.variant, a.word
  FROM added a, directory_search_variants(a.key, 1) AS v(variant)
  ORDER BY v.variant, a.word
  ON CONFLICT DO NOTHING;
END;
