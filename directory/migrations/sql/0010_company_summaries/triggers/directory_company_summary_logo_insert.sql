CREATE TRIGGER directory_company_summary_logo_insert AFTER INSERT ON directory_logo
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION directory_company_summary_logo_sync();
