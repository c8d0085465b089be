-- A sector renamed or given a new slug rebuilds its companies' summaries (statement
-- trigger directory_company_summary_sector_update).
CREATE OR REPLACE FUNCTION directory_company_summary_sector_sync() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  PERFORM directory_company_summaries_refresh(ARRAY(
    SELECT c.id FROM directory_company c WHERE c.sector_id IN (
      SELECT n.id FROM (SELECT id, slug, name FROM new_rows
                        EXCEPT SELECT id, slug, name FROM old_rows) n)));
  RETURN NULL;
END $$;
