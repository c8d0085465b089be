CREATE TRIGGER directory_company_summary_logo_delete AFTER DELETE ON directory_logo
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION directory_company_summary_logo_sync();
