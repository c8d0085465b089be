-- Adds to directory_search_gram what the search documents `docs` of `kind` hold, each
-- counted `signs` times (+1 for a new document, -1 for one gone) as current or not
-- (`currents`), in key order, so that two writers never wait for each other in opposite
-- orders; rows that come to nothing go.
CREATE OR REPLACE FUNCTION directory_search_grams_add(
  kind text, docs text[], currents boolean[], signs integer[])
  RETURNS void
  LANGUAGE plpgsql AS $$
DECLARE
  emptied text[];
  emptied_lengths integer[];
  emptied_currents boolean[];
BEGIN
  WITH changed AS (
    INSERT INTO directory_search_gram AS t
      (kind, gram, length, is_current, inside, start, whole, exact)
      SELECT directory_search_grams_add.kind, g.gram, length(d.doc), d.is_current, sum(d.sign),
             coalesce(sum(d.sign) FILTER (WHERE g.start), 0),
             coalesce(sum(d.sign) FILTER (WHERE g.whole), 0),
             coalesce(sum(d.sign) FILTER (WHERE g.exact), 0)
      FROM unnest(docs, currents, signs) AS d(doc, is_current, sign),
           directory_search_grams(d.doc) AS g
      GROUP BY 2, 3, 4
      ORDER BY 2, 3, 4
    ON CONFLICT ON CONSTRAINT directory_search_gram_pkey DO UPDATE
      SET inside = t.inside + excluded.inside, start = t.start + excluded.start,
          whole = t.whole + excluded.whole, exact = t.exact + excluded.exact
    RETURNING t.gram, t.length, t.is_current, t.inside
  )
  SELECT array_agg(c.gram), array_agg(c.length), array_agg(c.is_current)
  INTO emptied, emptied_lengths, emptied_currents
  FROM changed c WHERE c.inside = 0;
  DELETE FROM directory_search_gram t
  USING unnest(emptied, emptied_lengths, emptied_currents) AS e(gram, length, is_current)
  WHERE t.kind = directory_search_grams_add.kind AND t.gram = e.gram
    AND t.length = e.length AND t.is_current = e.is_current;
END $$;
