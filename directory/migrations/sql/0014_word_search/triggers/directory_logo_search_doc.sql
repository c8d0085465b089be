-- A logo's search document, whenever its title or company changes, or a company rename
-- asks for it (directory_company_renamed names search_doc).
CREATE OR REPLACE TRIGGER directory_logo_search_doc
  BEFORE INSERT OR UPDATE OF title, company_id, search_doc ON directory_logo
  FOR EACH ROW EXECUTE FUNCTION directory_logo_search_doc();
