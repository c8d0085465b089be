-- Truncated companies lose their full-text documents.
CREATE OR REPLACE TRIGGER directory_company_fulltext_truncate AFTER TRUNCATE ON directory_company
  FOR EACH STATEMENT EXECUTE FUNCTION directory_company_fulltext_truncate();
