-- A logo is found by its title and its company's name: the company's name lives in
-- another table, hence a row trigger (directory_logo_search_doc) and not a generated
-- column. directory_company_renamed asks for it again when a company is renamed.
CREATE OR REPLACE FUNCTION directory_logo_search_doc() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_doc := directory_search_doc(
    NEW.title, ARRAY[(SELECT c.name FROM directory_company c WHERE c.id = NEW.company_id)]);
  RETURN NEW;
END $$;
