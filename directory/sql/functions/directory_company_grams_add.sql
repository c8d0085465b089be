-- Adds to directory_company_gram what the search documents `docs` hold, each counted
-- `signs` times (+1 for a new document, -1 for one gone), in key order, so that two
-- writers never wait for each other in opposite orders; rows that come to nothing go.
CREATE OR REPLACE FUNCTION directory_company_grams_add(docs text[], signs integer[])
  RETURNS void
  LANGUAGE plpgsql AS $$
DECLARE
  emptied text[];
  emptied_lengths integer[];
BEGIN
  WITH changed AS (
    INSERT INTO directory_company_gram AS t (gram, length, inside, start, whole, exact)
      SELECT g.gram, length(d.doc), sum(d.sign),
             coalesce(sum(d.sign) FILTER (WHERE g.start), 0),
             coalesce(sum(d.sign) FILTER (WHERE g.whole), 0),
             coalesce(sum(d.sign) FILTER (WHERE g.exact), 0)
      FROM unnest(docs, signs) AS d(doc, sign), directory_search_grams(d.doc) AS g
      GROUP BY 1, 2
      ORDER BY 1, 2
    ON CONFLICT (gram, length) DO UPDATE
      SET inside = t.inside + excluded.inside, start = t.start + excluded.start,
          whole = t.whole + excluded.whole, exact = t.exact + excluded.exact
    RETURNING t.gram, t.length, t.inside
  )
  SELECT array_agg(c.gram), array_agg(c.length) INTO emptied, emptied_lengths
  FROM changed c WHERE c.inside = 0;
  DELETE FROM directory_company_gram t
  USING unnest(emptied, emptied_lengths) AS e(gram, length)
  WHERE t.gram = e.gram AND t.length = e.length;
END $$;
