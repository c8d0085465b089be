-- Changed names and "about" texts teach the lexicon; a changed sector or province moves
-- a company in the tally. A column list (UPDATE OF ...) cannot go with transition tables:
-- the function compares instead.
CREATE OR REPLACE TRIGGER directory_company_search_update AFTER UPDATE ON directory_company
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION directory_company_search_sync();
