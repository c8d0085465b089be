CREATE FUNCTION directory_logo_search_text() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_text := directory_names_text(
    NEW.title, ARRAY[(SELECT name FROM directory_company WHERE id = NEW.company_id)]::text[]);
  RETURN NEW;
END $$;
