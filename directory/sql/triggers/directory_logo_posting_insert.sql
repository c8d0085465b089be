-- The words of logo search documents, for one-word search (directory_search_posting_sync).
CREATE OR REPLACE TRIGGER directory_logo_posting_insert AFTER INSERT ON directory_logo
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION directory_search_posting_sync('logo');
