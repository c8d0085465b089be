CREATE TRIGGER directory_company_summary_sector_update AFTER UPDATE ON directory_sector
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION directory_company_summary_sector_sync();
