-- Logos carry their company's name in search_doc: a new name asks for it again.
CREATE OR REPLACE TRIGGER directory_company_renamed AFTER UPDATE OF name ON directory_company
  FOR EACH ROW WHEN (old.name IS DISTINCT FROM new.name)
  EXECUTE FUNCTION directory_company_renamed();
