-- Emptying the companies, and with them the logos, empties the words of both
-- (directory_search_posting_sync).
CREATE OR REPLACE TRIGGER directory_company_posting_truncate AFTER TRUNCATE ON directory_company
  FOR EACH STATEMENT EXECUTE FUNCTION directory_search_posting_sync('company');
