-- The words of company search documents, for one-word search (directory_search_posting_sync).
CREATE OR REPLACE TRIGGER directory_company_posting_update AFTER UPDATE ON directory_company
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION directory_search_posting_sync('company');
