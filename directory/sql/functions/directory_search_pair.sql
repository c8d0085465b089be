-- How near a lexicon word (`word`, key `key`) is to a typed word (`typed`, key `wanted`):
-- `distance` (NULL: no correction), edits between keys (`sounded`) and spellings
-- (`spelled`), and `kept`, whether directory_search_corrections returns the word.
-- Spellings count against the longer word's budget (a mistake can drop letters:
-- "caernig" is two from "catering"), keys against the shorter key's; a key an edit or two
-- away only when the spellings differ in at most a quarter of their letters, the same
-- key in about half and, for three letters, at the same length ("bas" sounds as "Vaz").
-- A word without a vowel (an acronym) is never a correction: random letters are not a
-- mistyped acronym. One SELECT, which PostgreSQL inlines where it is called.
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
