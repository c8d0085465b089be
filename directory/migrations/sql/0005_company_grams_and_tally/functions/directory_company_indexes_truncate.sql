CREATE FUNCTION directory_company_indexes_truncate() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE directory_company_gram, directory_company_gram_total, directory_company_tally;
  RETURN NULL;
END $$;
