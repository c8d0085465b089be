-- A word's key or spelling and, when `deletions` allows, the same with one or two letters
-- taken out: two words within a few edits share one of these (the symmetric deletion
-- method). directory_search_variant stores every word's key with one letter out and its
-- spelling with as many as its budget allows (directory_search_learn); a term's word asks
-- with up to two (directory_search_corrections).
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
