-- A logo's document holds its company's name, from another table: a row trigger, not a
-- generated column (a renamed company rewrites its logos', directory_company_search_sync).
CREATE OR REPLACE FUNCTION directory_logo_search_doc() RETURNS trigger
  LANGUAGE plpgsql AS $$
DECLARE
  company_name text;
BEGIN
  -- Into a variable: as the argument, a subquery would set directory_search_doc up per row.
  SELECT c.name INTO company_name FROM directory_company c WHERE c.id = NEW.company_id;
  NEW.search_doc := directory_search_doc(NEW.title, ARRAY[company_name]);
  RETURN NEW;
END $$;
