-- Adds the words of `texts` that directory_search_word lacks, with their variants
-- (directory_search_stored) and corrections (directory_search_near_add); `named` (names,
-- logo titles) also marks known words so. Words are written in order, so that two writers
-- never wait for each other in opposite orders; only the writer that added a word writes
-- its variants: a plain INSERT, a third of ON CONFLICT's cost. PL/pgSQL: most writes
-- (a download's count) pass an empty array and return before anything is planned.
CREATE OR REPLACE FUNCTION directory_search_learn(texts text[], named boolean) RETURNS void
  LANGUAGE plpgsql AS $$
DECLARE
  words text[];
  fresh text[];
BEGIN
  IF coalesce(cardinality(texts), 0) = 0 THEN
    RETURN;
  END IF;
  -- Split once, joined by "|" in pieces of 10,000 (normalising's regular expressions
  -- cost as much per call as per text; "|" parts the texts alike).
  words := ARRAY(SELECT w.word
                 FROM directory_search_words(ARRAY(
                        SELECT array_to_string(texts[i:i + 9999], '|')
                        FROM generate_series(1, cardinality(texts), 10000) AS i)) AS w(word)
                 ORDER BY w.word);
  WITH added AS (
    INSERT INTO directory_search_word (word, key, named)
    SELECT w.word, directory_search_key(w.word), directory_search_learn.named
    FROM unnest(words) AS w(word) ORDER BY w.word
    ON CONFLICT DO NOTHING
    RETURNING word
  )
  SELECT array_agg(word) INTO fresh FROM added;
  IF fresh IS NOT NULL THEN
    INSERT INTO directory_search_variant (variant, word)
    SELECT DISTINCT v.variant, s.word
    FROM directory_search_word s,
         unnest(directory_search_stored(s.word COLLATE "default", s.key)) AS v(variant)
    WHERE s.word = ANY (fresh)
    ORDER BY v.variant, s.word;
    PERFORM directory_search_near_add(fresh);
  END IF;
  UPDATE directory_search_word s SET named = true
  WHERE s.word IN (SELECT k.word FROM directory_search_word k
                   WHERE directory_search_learn.named AND NOT k.named AND k.word = ANY (words)
                   ORDER BY k.word FOR UPDATE);
END $$;
