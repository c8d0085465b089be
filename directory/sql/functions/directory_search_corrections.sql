-- The words of the catalogue within typing distance of `typed` (a normalised word of a
-- term), with the edits counted between sound keys (directory_search_key, `sounded`: the
-- usual Spanish confusions are free) and between spellings (`spelled`): "marquuez" keys
-- to "marque" and "marquez" to "mark", three edits apart, but is one edit from it as
-- spelt. `distance` is the nearer of the two within budget (directory_search_budget),
-- NULL when neither is. Spellings count against the longer word's budget (a mistake can
-- drop letters: "caernig" is two from "catering"), keys against the shorter key's (a key
-- of three letters or fewer only sounds the same or not); a key an edit or two away only
-- when the spellings differ in at most a quarter of their letters, the same key in about
-- half and, for a word of three letters, at the same length ("lmzlh" keys one edit from
-- the key of "CMSL", but "bas" sounds as "Vaz"). A word without a vowel, an
-- acronym, is never a correction: random letters are not a mistyped acronym. With a NULL
-- `distance`, the words within the typed word's own budget by sound, from which related
-- search picks its correction (directory_search_plan).
--
-- Candidates share a stored deletion of a key or spelling (directory_search_variant,
-- directory_search_lookups: the symmetric deletion method). A lexicon word's rows with a
-- distance are stored too (directory_search_near), and search reads those instead. All of
-- them, unordered: which one a term needs depends on its other words (docs/search.md).
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
