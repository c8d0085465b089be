-- A logo's search document, whenever its title or company changes (a company rename
-- writes its logos' documents in directory_company_search_sync).
CREATE OR REPLACE TRIGGER directory_logo_search_doc
  BEFORE INSERT OR UPDATE OF title, company_id ON directory_logo
  FOR EACH ROW EXECUTE FUNCTION directory_logo_search_doc();
