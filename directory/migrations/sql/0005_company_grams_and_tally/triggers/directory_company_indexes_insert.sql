CREATE TRIGGER directory_company_indexes_insert AFTER INSERT ON directory_company
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION directory_company_indexes_sync();
