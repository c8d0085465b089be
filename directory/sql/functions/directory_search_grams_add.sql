-- What the search documents `docs` of `kind` add (`signs` +1) or take back (-1), current
-- or not (`currents`): their three-letter runs' counts (directory_search_gram, _total)
-- and, given `ids`, their words (directory_search_posting). Counts are written in key
-- order (two writers never wait for each other in opposite orders); rows that come to
-- nothing go, an unchanged total is not written.
DROP FUNCTION IF EXISTS directory_search_grams_add(text, text[], boolean[], integer[]);
CREATE OR REPLACE FUNCTION directory_search_grams_add(
  kind text, docs text[], currents boolean[], signs integer[], ids uuid[] DEFAULT NULL)
  RETURNS void
  LANGUAGE plpgsql AS $$
DECLARE
  counts directory_search_gram[];
  emptied directory_search_gram[];
  emptied_totals text[];
BEGIN
  -- Counted and sorted once, for both tables.
  counts := ARRAY(
    SELECT ROW(directory_search_grams_add.kind, g.gram, length(d.doc), d.is_current,
               sum(d.sign), coalesce(sum(d.sign) FILTER (WHERE g.start), 0),
               coalesce(sum(d.sign) FILTER (WHERE g.whole), 0),
               coalesce(sum(d.sign) FILTER (WHERE g.exact), 0))::directory_search_gram
    FROM unnest(docs, currents, signs) AS d(doc, is_current, sign),
         directory_search_grams(d.doc) AS g
    GROUP BY g.gram, length(d.doc), d.is_current
    ORDER BY g.gram COLLATE "C", length(d.doc), d.is_current);
  WITH changed AS (
    INSERT INTO directory_search_gram AS t SELECT * FROM unnest(counts)
    ON CONFLICT ON CONSTRAINT directory_search_gram_pkey DO UPDATE
      SET inside = t.inside + excluded.inside, start = t.start + excluded.start,
          whole = t.whole + excluded.whole, exact = t.exact + excluded.exact
    RETURNING t.*
  )
  SELECT array_agg(c) INTO emptied FROM changed c WHERE c.inside = 0;
  DELETE FROM directory_search_gram t USING unnest(emptied) AS e
  WHERE t.kind = e.kind AND t.gram = e.gram AND t.length = e.length
    AND t.is_current = e.is_current;
  WITH changed AS (
    INSERT INTO directory_search_gram_total AS t (kind, gram, inside)
      SELECT directory_search_grams_add.kind, c.gram, sum(c.inside)
      FROM unnest(counts) AS c
      GROUP BY c.gram HAVING sum(c.inside) <> 0
      ORDER BY c.gram
    ON CONFLICT ON CONSTRAINT directory_search_gram_total_pkey DO UPDATE
      SET inside = t.inside + excluded.inside
    RETURNING t.gram, t.inside
  )
  SELECT array_agg(c.gram) INTO emptied_totals FROM changed c WHERE c.inside = 0;
  DELETE FROM directory_search_gram_total t
  WHERE t.kind = directory_search_grams_add.kind AND t.gram = ANY (emptied_totals);
  IF ids IS NULL THEN
    RETURN;
  END IF;
  -- A row's old words go before its new ones come (the same key when a word stays).
  IF -1 = ANY (signs) THEN
    DELETE FROM directory_search_posting p
    USING unnest(ids, docs, signs) AS o(id, doc, sign),
          unnest(string_to_array(o.doc, ' ')) AS w(word)
    WHERE o.sign < 0 AND p.kind = directory_search_grams_add.kind AND p.word = w.word
      AND p.id = o.id;
    SELECT array_agg(d.id), array_agg(d.doc), array_agg(d.is_current) INTO ids, docs, currents
    FROM unnest(ids, docs, currents, signs) AS d(id, doc, is_current, sign) WHERE d.sign > 0;
  END IF;
  PERFORM directory_search_posting_add(kind, ids, docs, currents);
END $$;
