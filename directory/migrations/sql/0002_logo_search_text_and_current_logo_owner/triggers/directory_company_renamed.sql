CREATE TRIGGER directory_company_renamed
  AFTER UPDATE OF name ON directory_company
  FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name)
  EXECUTE FUNCTION directory_company_renamed();
