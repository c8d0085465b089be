-- A word's key or spelling and, when `deletions` allows, the same with one or two letters
-- taken out: two words within a few edits share one of these (the symmetric deletion
-- method). directory_search_variant stores every word's key with one letter out and its
-- spelling with as many as its budget allows (directory_search_learn); a term's word asks
-- with up to two (directory_search_corrections). Loops of plain expressions, which
-- PL/pgSQL evaluates without starting a query: as a set-returning SQL function (a union
-- of generate_series), a search's lookups cost a third of its corrections, and the
-- lexicon's updates twice as much.
CREATE OR REPLACE FUNCTION directory_search_deletions(key text, deletions integer)
  RETURNS text[]
  LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE STRICT AS $$
DECLARE
  letters integer := length(key);
  found text[] := ARRAY[key];
BEGIN
  IF deletions >= 1 AND letters > 2 THEN
    FOR i IN 1..letters LOOP
      found := found || (left(key, i - 1) || substr(key, i + 1));
      IF deletions >= 2 AND letters > 4 THEN
        FOR j IN i + 1..letters LOOP
          found := found || (left(key, i - 1) || substr(key, i + 1, j - i - 1) || substr(key, j + 1));
        END LOOP;
      END IF;
    END LOOP;
  END IF;
  RETURN found;
END $$;
