-- How many edits apart `a` and `b` are (directory_search_distance) within `budget`; 9
-- otherwise or when not worth measuring. Levenshtein's (in C) is exact but for swaps: two
-- edits changing the length hold none; the rest within reach are measured in full
-- (PL/pgSQL). One expression, so that PostgreSQL inlines it.
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
