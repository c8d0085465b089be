-- A logo is found by its title and its company's name: the company's name lives in
-- another table, hence a row trigger (directory_logo_search_doc) and not a generated
-- column. A renamed company writes its logos' documents itself
-- (directory_company_search_sync).
CREATE OR REPLACE FUNCTION directory_logo_search_doc() RETURNS trigger
  LANGUAGE plpgsql AS $$
DECLARE
  company_name text;
BEGIN
  -- Read into a variable: a subquery as the argument would make PL/pgSQL run the
  -- assignment as a query and set directory_search_doc up again for every row.
  SELECT c.name INTO company_name FROM directory_company c WHERE c.id = NEW.company_id;
  NEW.search_doc := directory_search_doc(NEW.title, ARRAY[company_name]);
  RETURN NEW;
END $$;
