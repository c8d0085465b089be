CREATE FUNCTION directory_company_summary_truncate() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE directory_company_summary;
  RETURN NULL;
END $$;
