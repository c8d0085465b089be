-- Company writes to their summaries (statement triggers directory_company_summary_insert,
-- _update and _delete). An update rebuilds only the companies whose summarised values
-- changed.
CREATE OR REPLACE FUNCTION directory_company_summary_company_sync() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM directory_company_summaries_refresh(ARRAY(SELECT n.id FROM new_rows n));
  ELSIF TG_OP = 'DELETE' THEN
    DELETE FROM directory_company_summary WHERE company_id IN (SELECT o.id FROM old_rows o);
  ELSE
    PERFORM directory_company_summaries_refresh(ARRAY(
      SELECT n.id FROM (
        SELECT id, slug, name, entity_type, is_verified, province, sector_id, current_logo_id
        FROM new_rows
        EXCEPT
        SELECT id, slug, name, entity_type, is_verified, province, sector_id, current_logo_id
        FROM old_rows) n));
  END IF;
  RETURN NULL;
END $$;
