CREATE TRIGGER directory_company_indexes_truncate AFTER TRUNCATE ON directory_company
  FOR EACH STATEMENT EXECUTE FUNCTION directory_company_indexes_truncate();
