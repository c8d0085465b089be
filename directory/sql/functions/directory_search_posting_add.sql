-- Adds to directory_search_posting the words of the documents `docs` of the rows `ids`
-- of `kind`, current or not (`currents`): each word of three letters or more once per
-- document, and whether it is also a whole name of it. Called by
-- directory_search_grams_add and by the migration that fills the table (PL/pgSQL, which
-- the first migration can create before the table exists).
CREATE OR REPLACE FUNCTION directory_search_posting_add(
  kind text, ids uuid[], docs text[], currents boolean[]) RETURNS void
  LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO directory_search_posting (kind, word, id, is_current, length, named)
  SELECT DISTINCT directory_search_posting_add.kind, w.word, n.id, n.is_current, length(n.doc),
         strpos(n.doc, '| ' || w.word || ' |') > 0
  FROM unnest(ids, docs, currents) AS n(id, doc, is_current),
       unnest(string_to_array(n.doc, ' ')) AS w(word)
  WHERE length(w.word) > 2;
END $$;
