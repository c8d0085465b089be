-- New companies get their full-text documents.
CREATE OR REPLACE TRIGGER directory_company_fulltext_insert AFTER INSERT ON directory_company
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION directory_company_fulltext_company_sync();
