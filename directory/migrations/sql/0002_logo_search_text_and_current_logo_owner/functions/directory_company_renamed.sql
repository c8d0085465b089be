CREATE FUNCTION directory_company_renamed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Naming search_text in the SET list makes the logo trigger recompute it.
  UPDATE directory_logo SET search_text = '' WHERE company_id = NEW.id;
  RETURN NULL;
END $$;
