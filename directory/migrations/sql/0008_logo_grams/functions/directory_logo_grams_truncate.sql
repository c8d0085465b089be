CREATE FUNCTION directory_logo_grams_truncate() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE directory_logo_gram, directory_logo_gram_total;
  RETURN NULL;
END $$;
