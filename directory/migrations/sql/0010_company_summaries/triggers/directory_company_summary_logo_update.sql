CREATE TRIGGER directory_company_summary_logo_update AFTER UPDATE ON directory_logo
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION directory_company_summary_logo_sync();
