-- The rank (directory_search_rank) of rank class `class` of a one-word search of three
-- letters: 1 the name is exactly the word, 2 holds it whole, 3 at a word's start, 4 inside.
CREATE OR REPLACE FUNCTION directory_search_class_rank(class integer) RETURNS integer
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN (ARRAY[0, 1, 2, 35])[class];
