-- Companies truncated (Django's test flush): their documents go too.
CREATE OR REPLACE FUNCTION directory_company_fulltext_truncate() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE directory_company_fulltext;
  RETURN NULL;
END $$;
