-- Truncated companies (Django's test flush) empty what their triggers keep.
CREATE OR REPLACE TRIGGER directory_company_search_truncate AFTER TRUNCATE ON directory_company
  FOR EACH STATEMENT EXECUTE FUNCTION directory_company_search_truncate();
