CREATE TRIGGER directory_company_indexes_delete AFTER DELETE ON directory_company
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION directory_company_indexes_sync();
