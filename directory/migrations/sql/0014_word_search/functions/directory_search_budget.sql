-- How many typing mistakes a typed word may hold and still be read as a word of the
-- catalogue (docs/search.md): one in a word of 4 to 7 letters, two from 8, none below 4.
CREATE OR REPLACE FUNCTION directory_search_budget(word text) RETURNS integer
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN CASE WHEN length(word) >= 8 THEN 2 WHEN length(word) >= 4 THEN 1 ELSE 0 END;
