-- The optimal string alignment distance: insertions, deletions, substitutions and
-- transpositions of two neighbouring letters each count one. Typo correction runs it
-- on the few candidates directory_search_word_variant found, never on a whole table.
CREATE OR REPLACE FUNCTION directory_search_distance(a text, b text) RETURNS integer
  LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE STRICT AS $$
DECLARE
  la integer := length(a);
  lb integer := length(b);
  d integer[];
  w integer := length(b) + 1;  -- row width of the (la + 1) x (lb + 1) matrix in d
  cost integer;
BEGIN
  d := array_fill(0, ARRAY[(la + 1) * w]);
  FOR i IN 0..la LOOP d[i * w + 1] := i; END LOOP;
  FOR j IN 0..lb LOOP d[j + 1] := j; END LOOP;
  FOR i IN 1..la LOOP
    FOR j IN 1..lb LOOP
      cost := CASE WHEN substr(a, i, 1) = substr(b, j, 1) THEN 0 ELSE 1 END;
      d[i * w + j + 1] := least(d[(i - 1) * w + j + 1] + 1, d[i * w + j] + 1,
                                d[(i - 1) * w + j] + cost);
      IF i > 1 AND j > 1 AND substr(a, i, 1) = substr(b, j - 1, 1)
         AND substr(a, i - 1, 1) = substr(b, j, 1) THEN
        d[i * w + j + 1] := least(d[i * w + j + 1], d[(i - 2) * w + j - 1] + 1);
      END IF;
    END LOOP;
  END LOOP;
  RETURN d[la * w + lb + 1];
END $$;
