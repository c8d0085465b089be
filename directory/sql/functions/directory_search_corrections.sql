-- The words of the catalogue within typing distance of `typed` (a normalised word of a
-- term). An edit is counted both between sound keys (directory_search_key, `sounded`: the
-- usual Spanish confusions cost nothing) and between spellings (`spelled`): "marquuez"
-- keys to "marque" and "marquez" to "mark", three edits apart, but is one edit from it
-- as spelt. `distance` is the nearer of the two within budget
-- (directory_search_budget: one edit from 4 letters, two from 8), NULL when neither is:
-- spellings within the budget of the longer of the two, since a mistake can drop letters
-- ("caernig" is two edits from "catering"), keys within that of the shorter key (a key
-- of three letters or fewer only sounds the same or not: "pqihw" keys to "pkiw", which
-- is not one edit from "PKI"); a key an edit or two away only when the spellings differ
-- in at most a quarter of their letters, the same key in about half and, for a word of
-- three letters, only at the same length ("lmzlh" keys to "lmsl", one edit from the key
-- of "CMSL", "upkkz" to the key of "UPC", but "bas" sounds as "Vaz"). A word without a
-- vowel, an acronym, is never a correction: random letters are not a mistyped acronym.
-- Also, with a NULL `distance`, the words within the typed word's own budget by sound,
-- which related search picks its correction from (directory_search_plan).
--
-- Candidates come from the stored deletions of every key and spelling
-- (directory_search_variant), looked up with the typed word's own: two words within a
-- few edits always share one (the symmetric deletion method). All of them, unordered:
-- which one a term needs depends on its other words (docs/search.md). Distances are the
-- optimal string alignment distance (directory_search_apart: a swap of two neighbours
-- is one edit).
DROP FUNCTION IF EXISTS directory_search_corrections(text);
CREATE OR REPLACE FUNCTION directory_search_corrections(typed text)
  RETURNS TABLE (word text, distance integer, sounded integer, spelled integer, named boolean)
  LANGUAGE plpgsql STABLE PARALLEL SAFE
  -- The same plan whatever the word: planning it for each word cost more than running it.
  SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  wanted text := directory_search_key(typed);
  budget integer := directory_search_budget(typed);
  -- An array, not a subquery: PostgreSQL then expects few rows, and probes the keys. A
  -- word of six letters may be two edits from one of eight. Duplicates cost nothing: the
  -- index scan sorts the array and drops them.
  lookups text[] := directory_search_deletions(wanted, directory_search_budget(wanted))
                    || directory_search_deletions(typed, CASE WHEN length(typed) >= 6 THEN 2
                                                              ELSE budget END);
BEGIN
  RETURN QUERY
    SELECT m.word,
           CASE WHEN m.word ~ '[aeiou]' THEN
             least(CASE WHEN m.sounded = 0
                          AND 2 * m.apart <= greatest(length(m.word), length(typed)) + 1
                          AND (least(length(m.word), length(typed)) >= 4
                               OR length(m.word) = length(typed))
                          OR m.sounded <= m.sound_budget
                             AND 4 * m.apart <= greatest(length(m.word), length(typed))
                        THEN m.sounded END,
                   CASE WHEN m.spelled <= m.spelling_budget THEN m.spelled END) END,
           m.sounded, m.spelled, m.named
    FROM (SELECT s.word, s.named, b.sound_budget, b.spelling_budget,
                 levenshtein_less_equal(s.word, typed, 4) AS apart,
                 directory_search_apart(s.key, wanted, b.sound_budget) AS sounded,
                 directory_search_apart(s.word, typed, b.spelling_budget) AS spelled
          FROM directory_search_word s,
               LATERAL (SELECT directory_search_budget(CASE WHEN length(s.key) < length(wanted)
                                                            THEN s.key ELSE wanted END)
                                 AS sound_budget,
                               directory_search_budget(CASE WHEN length(s.word) > length(typed)
                                                            THEN s.word ELSE typed END)
                                 AS spelling_budget) b
          WHERE s.word IN (SELECT v.word FROM directory_search_variant v
                           WHERE v.variant = ANY (lookups))
            AND s.word <> typed AND abs(length(s.word) - length(typed)) <= 3
          -- Not merged into the query above, which would measure each distance once for
          -- every mention of it.
          OFFSET 0) m
    WHERE m.sounded <= m.sound_budget OR m.sounded = 0 OR m.spelled <= m.spelling_budget
       OR m.sounded <= budget;
END $$;
