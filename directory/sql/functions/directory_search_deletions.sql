-- A word's key or spelling and, as `deletions` allows, the same with one or two letters
-- out: two words within a few edits share one of these (the symmetric deletion method).
-- Loops of plain expressions, which PL/pgSQL runs without starting a query (a union of
-- generate_series cost a third of a search's corrections).
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
