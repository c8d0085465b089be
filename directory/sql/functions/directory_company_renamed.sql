-- Naming search_doc in the SET list makes directory_logo_search_doc recompute it.
CREATE OR REPLACE FUNCTION directory_company_renamed() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  UPDATE directory_logo SET search_doc = '' WHERE company_id = NEW.id;
  RETURN NULL;
END $$;
