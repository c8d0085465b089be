-- Naming search_doc in the SET list makes directory_logo_search_doc recompute it.
CREATE OR REPLACE FUNCTION directory_company_renamed() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  UPDATE directory_logo SET search_doc = '' WHERE company_id IN (
    SELECT new_rows.id FROM new_rows JOIN old_rows USING (id)
    WHERE new_rows.name IS DISTINCT FROM old_rows.name);
  RETURN NULL;
END $$;
