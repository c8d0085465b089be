-- The catalogue's words within typing distance of `typed` (a normalised word of a term):
-- edits between sound keys (directory_search_key, `sounded`: the usual Spanish confusions
-- are free) and between spellings (`spelled`: "marquuez" keys three edits from "marquez"
-- but is spelt one away); `distance`, the nearer within budget, else NULL. The rules are
-- directory_search_pair's. With a NULL `distance`, the words within the typed word's own
-- budget by sound, for related search's correction (directory_search_plan). Candidates
-- share a stored deletion of a key or spelling (directory_search_lookups: the symmetric
-- deletion method). A lexicon word's rows with a distance are stored, all, unordered
-- (directory_search_near): which one a term needs depends on its other words.
DROP FUNCTION IF EXISTS directory_search_corrections(text);
CREATE OR REPLACE FUNCTION directory_search_corrections(typed text)
  RETURNS TABLE (word text, distance integer, sounded integer, spelled integer, named boolean)
  LANGUAGE plpgsql STABLE PARALLEL SAFE
  -- The same plan whatever the word: planning it for each word cost more than running it.
  SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  wanted text := directory_search_key(typed);
  -- An array, not a subquery: PostgreSQL then expects few rows, and probes the keys.
  -- Duplicates cost nothing: the index scan sorts the array and drops them.
  lookups text[] := directory_search_lookups(typed, wanted);
BEGIN
  RETURN QUERY
    SELECT s.word, p.distance, p.sounded, p.spelled, s.named
    FROM directory_search_word s, LATERAL directory_search_pair(s.word, s.key, typed, wanted) p
    WHERE s.word IN (SELECT v.word FROM directory_search_variant v
                     WHERE v.variant = ANY (lookups))
      AND s.word <> typed AND abs(length(s.word) - length(typed)) <= 3 AND p.kept;
END $$;
