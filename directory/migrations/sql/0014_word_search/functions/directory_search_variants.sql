-- A word's key and, when `deletions` allows, the keys with one or two letters taken
-- out: two words are within a few edits only if their variants meet (the symmetric
-- deletion method). directory_search_variant stores one deletion of every key; a
-- term's word asks with up to two, so that one-edit typos are always found and two-edit
-- ones whenever at most one of them is a substitution (directory_search_corrections
-- finds the others by shared trigrams).
CREATE OR REPLACE FUNCTION directory_search_variants(key text, deletions integer)
  RETURNS SETOF text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
BEGIN ATOMIC
  SELECT key
  UNION
  SELECT left(key, i - 1) || substr(key, i + 1)
  FROM generate_series(1, length(key)) AS i
  WHERE deletions >= 1 AND length(key) > 2
  UNION
  SELECT left(key, i - 1) || substr(key, i + 1, j - i - 1) || substr(key, j + 1)
  FROM generate_series(1, length(key)) AS i, generate_series(i + 1, length(key)) AS j
  WHERE deletions >= 2 AND length(key) > 4;
END;
