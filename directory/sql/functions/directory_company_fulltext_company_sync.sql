-- Company writes to their full-text documents (statement triggers
-- directory_company_fulltext_insert, _update and _delete), read from the transition
-- tables, so that loading a million companies is one pass. An update refreshes only the
-- companies whose names, sector or "about" changed: most updates (a new current logo,
-- a save that changed nothing) write nothing.
CREATE OR REPLACE FUNCTION directory_company_fulltext_company_sync() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    DELETE FROM directory_company_fulltext WHERE company_id IN (SELECT o.id FROM old_rows o);
  ELSIF TG_OP = 'INSERT' THEN
    INSERT INTO directory_company_fulltext (company_id, document)
      SELECT n.id, directory_company_fulltext_document(n.name, n.alternative_names, s.name,
                                                       n.about)
      FROM new_rows n LEFT JOIN directory_sector s ON s.id = n.sector_id
      ORDER BY n.id;
  ELSE
    INSERT INTO directory_company_fulltext AS t (company_id, document)
      SELECT c.id, directory_company_fulltext_document(c.name, c.alternative_names, s.name,
                                                       c.about)
      FROM (SELECT n.id, n.name, n.alternative_names, n.sector_id, n.about FROM new_rows n
            EXCEPT
            SELECT o.id, o.name, o.alternative_names, o.sector_id, o.about FROM old_rows o) c
      LEFT JOIN directory_sector s ON s.id = c.sector_id
      ORDER BY c.id
    ON CONFLICT (company_id) DO UPDATE SET document = excluded.document
      WHERE t.document IS DISTINCT FROM excluded.document;
  END IF;
  RETURN NULL;
END $$;
