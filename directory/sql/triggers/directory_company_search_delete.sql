-- Deleted companies leave the tally.
CREATE OR REPLACE TRIGGER directory_company_search_delete AFTER DELETE ON directory_company
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION directory_company_search_sync();
