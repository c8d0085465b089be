-- How many edits apart `a` and `b` are (directory_search_distance), when that is within
-- `budget`; 9 otherwise, and for pairs not worth measuring (directory_search_corrections).
-- Levenshtein's distance (fuzzystrmatch, in C) is the true one but for swaps: two edits
-- that change the length hold none, and only the other pairs within reach are measured
-- in full (PL/pgSQL). One expression, so that PostgreSQL inlines it.
CREATE OR REPLACE FUNCTION directory_search_apart(a text, b text, budget integer)
  RETURNS integer
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN CASE WHEN levenshtein_less_equal(a, b, 1) <= 1 THEN levenshtein_less_equal(a, b, 1)
              WHEN budget = 2 AND length(a) <> length(b)
                   AND levenshtein_less_equal(a, b, 2) = 2 THEN 2
              WHEN budget >= 1 AND length(a) = length(b) AND levenshtein_less_equal(a, b, 2) = 2
                   OR budget = 2 AND levenshtein_less_equal(a, b, 4) BETWEEN 3 AND 4
                THEN directory_search_distance(a, b)
              ELSE 9 END;
