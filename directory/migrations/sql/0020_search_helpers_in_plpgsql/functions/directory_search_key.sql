-- How a word sounds in Spanish, roughly: the spellings people confuse read the same.
-- b/v, ll/y, c/s/z (c before e and i; qu and hard c as k), g/j before e and i, a
-- dropped h (not the one of ch), doubled letters, and a plural -s or -es. Typo
-- correction compares these keys (directory_search_distance), never shows them.
CREATE OR REPLACE FUNCTION directory_search_key(word text) RETURNS text
  LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  sound text := regexp_replace(translate(regexp_replace(regexp_replace(regexp_replace(
                  regexp_replace(regexp_replace(regexp_replace(word,
                    'll', 'y', 'g'),
                    'ch', 'C', 'g'),
                    'h', '', 'g'),
                    'qu?([ei])', 'k\1', 'g'),
                    'c([ei])', 's\1', 'g'),
                    'g([ei])', 'j\1', 'g'),
                  'cvz', 'kbs'),
                '(.)\1+', '\1', 'g');
BEGIN
  RETURN CASE WHEN sound ~ '[^aeiou]es$' AND length(sound) > 4 THEN left(sound, -2)
              WHEN sound ~ 's$' AND length(sound) > 3 THEN left(sound, -1)
              ELSE sound END;
END $$;
