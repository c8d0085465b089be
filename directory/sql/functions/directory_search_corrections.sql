-- Words of the catalogue within typing distance of `typed` (a normalised word of a
-- term), and how far: one edit for words of 4 to 7 letters, two from 8, none below 4
-- (there only a word that sounds the same counts), measured between sound keys
-- (directory_search_key) so that the usual Spanish confusions cost nothing, among words
-- whose length differs from the typed one's by at most one more than that (a key drops a
-- plural and doubled letters: "tor" is one edit from "torres" by key alone). Candidates
-- come from the stored one-letter deletions of every key (directory_search_variant),
-- which find every word one edit away and most two away. Only when those find none one
-- edit away for a word of eight letters or more are the keys of about the same length
-- that share a few trigrams (two edits can leave few) and lie within Levenshtein
-- distance 3 (fuzzystrmatch, in C) taken as candidates too. A candidate within Levenshtein distance
-- 1 is that far; the others directory_search_distance measures exactly (it counts a swap
-- of two neighbours as one edit). Nearest first; among words as near by sound, the one
-- nearer as spelt ("hotle": "hotel" before "bottle"; "segruos": "seguros" before "seguro").
CREATE OR REPLACE FUNCTION directory_search_corrections(typed text)
  RETURNS TABLE (word text, distance integer)
  LANGUAGE plpgsql STABLE PARALLEL SAFE
  SET pg_trgm.similarity_threshold = 0.15 AS $$
DECLARE
  wanted text := directory_search_key(typed);
  budget integer := directory_search_budget(typed);
BEGIN
  RETURN QUERY
    SELECT m.word, m.distance
    FROM (SELECT s.word,
                 CASE WHEN levenshtein_less_equal(s.key, wanted, 1) <= 1
                      THEN levenshtein_less_equal(s.key, wanted, 1)
                      ELSE directory_search_distance(s.key, wanted) END AS distance
          FROM directory_search_word s
          WHERE s.word IN (SELECT v.word FROM directory_search_variant v
                           WHERE v.variant IN (SELECT directory_search_variants(wanted, budget)))
         ) m
    WHERE m.distance <= budget AND m.word <> typed
      AND abs(length(m.word) - length(typed)) <= budget + 1
    ORDER BY m.distance, directory_search_distance(m.word, typed), m.word;
  IF budget < 2 OR EXISTS (
       SELECT 1 FROM directory_search_word s
       WHERE s.word IN (SELECT v.word FROM directory_search_variant v
                        WHERE v.variant IN (SELECT directory_search_variants(wanted, 1)))
         AND s.word <> typed AND levenshtein_less_equal(s.key, wanted, 1) <= 1) THEN
    RETURN;
  END IF;
  RETURN QUERY
    SELECT m.word, m.distance
    FROM (SELECT s.word, directory_search_distance(s.key, wanted) AS distance
          FROM directory_search_word s
          WHERE s.key % wanted AND abs(length(s.key) - length(wanted)) <= 2
            AND levenshtein_less_equal(s.key, wanted, 3) <= 3) m
    WHERE m.distance = 2 AND m.word <> typed
      AND abs(length(m.word) - length(typed)) <= budget + 1
      AND m.word NOT IN (SELECT v.word FROM directory_search_variant v
                         WHERE v.variant IN (SELECT directory_search_variants(wanted, budget)))
    ORDER BY directory_search_distance(m.word, typed), m.word;
END $$;
