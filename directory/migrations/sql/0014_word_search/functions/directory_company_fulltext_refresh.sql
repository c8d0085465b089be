-- Writes the full-text documents of these companies as their rows and sectors read
-- now; a document that did not change is not written.
CREATE OR REPLACE FUNCTION directory_company_fulltext_refresh(p_ids uuid[]) RETURNS void
  LANGUAGE sql
BEGIN ATOMIC
  INSERT INTO directory_company_fulltext AS t (company_id, document)
    SELECT c.id, directory_company_fulltext_document(c.name, c.alternative_names, s.name, c.about)
    FROM directory_company c
    LEFT JOIN directory_sector s ON s.id = c.sector_id
    WHERE c.id = ANY (p_ids)
    ORDER BY c.id
  ON CONFLICT (company_id) DO UPDATE SET document = excluded.document
    WHERE t.document IS DISTINCT FROM excluded.document;
END;
