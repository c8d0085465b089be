-- directory_search_plan's two-dimensional arrays from rows given as text, padded with NULL
-- to `width` (arrays are rectangular): a NULL pattern matches nothing, the index skips it.
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
