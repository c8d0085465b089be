-- A two-dimensional array (as directory_search_plan's fields hold) from one-dimensional
-- arrays, each given as its text, padded with NULL to `width`: PostgreSQL's arrays must
-- be rectangular. A NULL pattern matches nothing, and the trigram index skips it.
CREATE OR REPLACE FUNCTION directory_search_rows(arrays text[], width integer) RETURNS text[]
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN ARRAY(
    SELECT a.value::text[] || array_fill(NULL::text, ARRAY[width - cardinality(a.value::text[])])
    FROM unnest(arrays) WITH ORDINALITY AS a(value, position)
    ORDER BY a.position);
