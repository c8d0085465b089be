-- Deleted companies lose their full-text documents.
CREATE OR REPLACE TRIGGER directory_company_fulltext_delete AFTER DELETE ON directory_company
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION directory_company_fulltext_company_sync();
