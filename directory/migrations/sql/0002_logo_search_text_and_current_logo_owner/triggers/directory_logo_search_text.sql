CREATE TRIGGER directory_logo_search_text
  BEFORE INSERT OR UPDATE OF title, company_id, search_text ON directory_logo
  FOR EACH ROW EXECUTE FUNCTION directory_logo_search_text();
