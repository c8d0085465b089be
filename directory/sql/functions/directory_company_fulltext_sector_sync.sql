-- A renamed sector changes the documents of its companies (statement trigger
-- directory_company_fulltext_sector_update); other sector updates write nothing.
CREATE OR REPLACE FUNCTION directory_company_fulltext_sector_sync() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  PERFORM directory_company_fulltext_refresh(ARRAY(
    SELECT c.id FROM directory_company c WHERE c.sector_id IN (
      SELECT n.id FROM (SELECT id, name FROM new_rows
                        EXCEPT SELECT id, name FROM old_rows) n)));
  RETURN NULL;
END $$;
