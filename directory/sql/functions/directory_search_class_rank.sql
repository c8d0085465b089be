-- The rank (directory_search_rank) of the rows of rank class `class` of a one-word
-- search: 1 the name is exactly the word, 2 it holds it whole, 3 as a word start, 4
-- inside a word, 5 a near correction, 6 a far one.
CREATE OR REPLACE FUNCTION directory_search_class_rank(class integer) RETURNS integer
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN (ARRAY[0, 1, 2, 35, 2049, 2305])[class];
