-- A two-dimensional array (as directory_search_plan's fields hold) from one-dimensional
-- arrays, each given as its text, padded with NULL to `width`: PostgreSQL's arrays must
-- be rectangular. A NULL pattern matches nothing, and the trigram index skips it.
CREATE OR REPLACE FUNCTION directory_search_rows(arrays text[], width integer) RETURNS text[]
  LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  padded text[] := '{}';
  value text;
BEGIN
  FOREACH value IN ARRAY coalesce(arrays, '{}') LOOP
    padded := padded
              || ARRAY[value::text[] || array_fill(NULL::text,
                                                    ARRAY[width - cardinality(value::text[])])];
  END LOOP;
  RETURN padded;
END $$;
