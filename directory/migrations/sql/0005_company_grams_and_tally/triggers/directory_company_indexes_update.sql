CREATE TRIGGER directory_company_indexes_update AFTER UPDATE ON directory_company
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION directory_company_indexes_sync();
