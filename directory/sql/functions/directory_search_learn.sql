-- Adds the words of `texts` (directory_search_words) that directory_search_word lacks,
-- with the variants of their keys and spellings (directory_search_variant,
-- directory_search_stored) and their corrections (directory_search_near_add); `named`
-- when the texts are names, alternative names or logo titles, which also marks known
-- words so (the argument named in full: a column of the same name would hide it). Known
-- words cost one primary-key probe each; new and marked ones are written in order, so two
-- writers never wait for each other in opposite orders. Only the writer that added a word
-- writes its variants, which no row holds yet: a plain INSERT, a third of ON CONFLICT's
-- cost. Most writes to a catalogue row (a download's count) change no text and pass an
-- empty array: it returns before anything is planned (a SQL-language function would plan
-- its statements on every call).
CREATE OR REPLACE FUNCTION directory_search_learn(texts text[], named boolean) RETURNS void
  LANGUAGE plpgsql AS $$
DECLARE
  words text[];
  fresh text[];
BEGIN
  IF coalesce(cardinality(texts), 0) = 0 THEN
    RETURN;
  END IF;
  -- Split once: at a load's size, splitting the texts again to mark them took seconds.
  -- Joined by "|" in pieces of 10,000, which normalising parts as it parts the texts (the
  -- same words): its regular expressions cost as much per call as per text.
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
