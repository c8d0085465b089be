-- Logo writes to their companies' summaries (statement triggers
-- directory_company_summary_logo_*): a logo counts in its company's summary, and shows
-- there when it is the current one. Most updates (a download's count) touch nothing a
-- summary shows, and rebuild nothing.
CREATE OR REPLACE FUNCTION directory_company_summary_logo_sync() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM directory_company_summaries_refresh(ARRAY(
      SELECT DISTINCT n.company_id FROM new_rows n));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM directory_company_summaries_refresh(ARRAY(
      SELECT DISTINCT o.company_id FROM old_rows o));
  ELSE
    PERFORM directory_company_summaries_refresh(ARRAY(
      SELECT DISTINCT changed.company_id FROM (
        (SELECT id, company_id, slug, title, preview FROM new_rows
         EXCEPT SELECT id, company_id, slug, title, preview FROM old_rows)
        UNION
        (SELECT id, company_id, slug, title, preview FROM old_rows
         EXCEPT SELECT id, company_id, slug, title, preview FROM new_rows)) changed));
  END IF;
  RETURN NULL;
END $$;
