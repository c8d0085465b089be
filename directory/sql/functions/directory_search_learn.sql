-- Adds the words of `texts` (directory_search_words) that directory_search_word lacks,
-- with the variants of their keys and of their spellings (directory_search_variant);
-- `named` when the texts are names, alternative names or logo titles, which also marks
-- known words so (the argument named in full: a column of the same name would hide it).
-- Known words cost one primary-key probe each;
-- new and marked ones are written in order, so two writers never wait for each other in
-- opposite orders. Most writes to a catalogue row (a download's count, a preview) change
-- no text and pass an empty array: it returns before anything is planned (a SQL-language
-- function plans its statements on every call, which a download would pay for).
CREATE OR REPLACE FUNCTION directory_search_learn(texts text[], named boolean) RETURNS void
  LANGUAGE plpgsql AS $$
BEGIN
  IF coalesce(cardinality(texts), 0) = 0 THEN
    RETURN;
  END IF;
  WITH added AS (
    INSERT INTO directory_search_word (word, key, named)
    SELECT w.word, directory_search_key(w.word), directory_search_learn.named
    FROM directory_search_words(texts) AS w(word) ORDER BY w.word
    ON CONFLICT DO NOTHING
    RETURNING word, key
  )
  INSERT INTO directory_search_variant (variant, word)
  SELECT DISTINCT v.variant, a.word
  FROM added a,
       unnest(directory_search_deletions(a.key, 1)
              || directory_search_deletions(a.word, greatest(directory_search_budget(a.word), 1)))
         AS v(variant)
  ORDER BY v.variant, a.word
  ON CONFLICT DO NOTHING;
  UPDATE directory_search_word s SET named = true
  WHERE s.word IN (SELECT k.word FROM directory_search_word k
                   WHERE directory_search_learn.named AND NOT k.named
                     AND k.word IN (SELECT directory_search_words(texts))
                   ORDER BY k.word FOR UPDATE);
END $$;
