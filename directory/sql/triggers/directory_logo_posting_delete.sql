-- The words of logo search documents, for one-word search (directory_search_posting_sync).
CREATE OR REPLACE TRIGGER directory_logo_posting_delete AFTER DELETE ON directory_logo
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION directory_search_posting_sync('logo');
