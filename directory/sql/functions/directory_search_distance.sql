-- The optimal string alignment distance (a swap of two neighbours counts one, no letter
-- edited twice), for the few candidates directory_search_variant finds. Without a swap it
-- is the Levenshtein distance (fuzzystrmatch, in C); at a first swap, the Levenshtein
-- distance before it, one, and this distance after it. Only swaps that could beat the
-- best so far are followed: a few calls in C, where a PL/pgSQL matrix cost a millisecond.
CREATE OR REPLACE FUNCTION directory_search_distance(a text, b text) RETURNS integer
  LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE STRICT AS $$
DECLARE
  best integer := levenshtein(a, b);
  pair text;
  j integer;
  next integer;
  head integer;
BEGIN
  FOR i IN 1..length(a) - 1 LOOP
    EXIT WHEN best <= 1;
    CONTINUE WHEN substr(a, i, 1) = substr(a, i + 1, 1);
    pair := substr(a, i + 1, 1) || substr(a, i, 1);
    j := strpos(b, pair);
    WHILE j > 0 LOOP
      -- Before the transposition, the lengths differ by abs(i - j): as many edits.
      IF abs(i - j) + 1 < best THEN
        head := levenshtein_less_equal(left(a, i - 1), left(b, j - 1), best - 2);
        IF head + 1 < best THEN
          best := least(best,
                        head + 1 + directory_search_distance(substr(a, i + 2), substr(b, j + 2)));
        END IF;
      END IF;
      next := strpos(substr(b, j + 1), pair);
      j := CASE WHEN next = 0 THEN 0 ELSE j + next END;
    END LOOP;
  END LOOP;
  RETURN best;
END $$;
