-- How near a lexicon word (`word`, its sound key `key`) is to a typed word (`typed`, its
-- key `wanted`), as directory_search_corrections counts it (the rules are said there):
-- `distance` (NULL when the word is no correction), the edits between the keys
-- (`sounded`) and between the spellings (`spelled`), and `kept`, whether corrections
-- returns the word at all. Written once for the corrections of a term's word and for
-- the stored lists of the lexicon's words (directory_search_learn). A query of one
-- SELECT, which PostgreSQL inlines where it is called.
CREATE OR REPLACE FUNCTION directory_search_pair(word text, key text, typed text, wanted text)
  RETURNS TABLE (distance integer, sounded integer, spelled integer, kept boolean)
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN word ~ '[aeiou]' THEN
           least(CASE WHEN m.sounded = 0
                        AND 2 * m.apart <= greatest(length(word), length(typed)) + 1
                        AND (least(length(word), length(typed)) >= 4
                             OR length(word) = length(typed))
                        OR m.sounded <= m.sound_budget
                           AND 4 * m.apart <= greatest(length(word), length(typed))
                      THEN m.sounded END,
                 CASE WHEN m.spelled <= m.spelling_budget THEN m.spelled END) END,
         m.sounded, m.spelled,
         m.sounded <= m.sound_budget OR m.sounded = 0 OR m.spelled <= m.spelling_budget
           OR m.sounded <= directory_search_budget(typed)
  FROM (SELECT b.sound_budget, b.spelling_budget,
               levenshtein_less_equal(word, typed, 4) AS apart,
               directory_search_apart(key, wanted, b.sound_budget) AS sounded,
               directory_search_apart(word, typed, b.spelling_budget) AS spelled
        FROM (SELECT directory_search_budget(CASE WHEN length(key) < length(wanted)
                                                  THEN key ELSE wanted END) AS sound_budget,
                     directory_search_budget(CASE WHEN length(word) > length(typed)
                                                  THEN word ELSE typed END) AS spelling_budget) b
        -- Each distance measured once, not once for every mention of it.
        OFFSET 0) m
$$;
