-- Logos carry their company's name in search_doc: a new name asks for it again. A
-- statement trigger, so that a batch of renames (the import's) updates the logos in one
-- statement; a column list (UPDATE OF name) cannot go with transition tables, so the
-- function compares instead.
CREATE OR REPLACE TRIGGER directory_company_renamed AFTER UPDATE ON directory_company
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION directory_company_renamed();
