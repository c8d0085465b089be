-- Adds to directory_search_gram and directory_search_gram_total what the search
-- documents `docs` of `kind` hold, each counted `signs` times (+1 for a new document, -1
-- for one gone) as current or not (`currents`), in key order, so that two writers never
-- wait for each other in opposite orders; rows that come to nothing go. A run whose
-- total does not change (a renamed document that keeps it) is not written.
CREATE OR REPLACE FUNCTION directory_search_grams_add(
  kind text, docs text[], currents boolean[], signs integer[])
  RETURNS void
  LANGUAGE plpgsql AS $$
DECLARE
  grams text[];
  lengths integer[];
  is_currents boolean[];
  insides integer[];
  starts integer[];
  wholes integer[];
  exacts integer[];
  emptied text[];
  emptied_lengths integer[];
  emptied_currents boolean[];
BEGIN
  SELECT array_agg(c.gram ORDER BY c.gram, c.length, c.is_current),
         array_agg(c.length ORDER BY c.gram, c.length, c.is_current),
         array_agg(c.is_current ORDER BY c.gram, c.length, c.is_current),
         array_agg(c.inside ORDER BY c.gram, c.length, c.is_current),
         array_agg(c.start ORDER BY c.gram, c.length, c.is_current),
         array_agg(c.whole ORDER BY c.gram, c.length, c.is_current),
         array_agg(c.exact ORDER BY c.gram, c.length, c.is_current)
  INTO grams, lengths, is_currents, insides, starts, wholes, exacts
  FROM (SELECT g.gram, length(d.doc) AS length, d.is_current, sum(d.sign)::integer AS inside,
               coalesce(sum(d.sign) FILTER (WHERE g.start), 0)::integer AS start,
               coalesce(sum(d.sign) FILTER (WHERE g.whole), 0)::integer AS whole,
               coalesce(sum(d.sign) FILTER (WHERE g.exact), 0)::integer AS exact
        FROM unnest(docs, currents, signs) AS d(doc, is_current, sign),
             directory_search_grams(d.doc) AS g
        GROUP BY 1, 2, 3) c;
  WITH changed AS (
    INSERT INTO directory_search_gram AS t
      (kind, gram, length, is_current, inside, start, whole, exact)
      SELECT directory_search_grams_add.kind, c.*
      FROM unnest(grams, lengths, is_currents, insides, starts, wholes, exacts) AS c
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
  WITH changed AS (
    INSERT INTO directory_search_gram_total AS t (kind, gram, inside)
      SELECT directory_search_grams_add.kind, c.gram, sum(c.inside)
      FROM unnest(grams, insides) AS c(gram, inside)
      GROUP BY c.gram HAVING sum(c.inside) <> 0
      ORDER BY c.gram
    ON CONFLICT ON CONSTRAINT directory_search_gram_total_pkey DO UPDATE
      SET inside = t.inside + excluded.inside
    RETURNING t.gram, t.inside
  )
  SELECT array_agg(c.gram) INTO emptied FROM changed c WHERE c.inside = 0;
  DELETE FROM directory_search_gram_total t
  WHERE t.kind = directory_search_grams_add.kind AND t.gram = ANY (emptied);
END $$;
