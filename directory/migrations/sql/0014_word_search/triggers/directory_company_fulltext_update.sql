-- Changed names, sector or "about" change the full-text document. A column list
-- (UPDATE OF ...) cannot go with transition tables; the function compares instead.
CREATE OR REPLACE TRIGGER directory_company_fulltext_update AFTER UPDATE ON directory_company
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION directory_company_fulltext_company_sync();
