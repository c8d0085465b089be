-- Emptying the companies (Django's test flush) empties what directory_company_search_sync
-- keeps beside them.
CREATE OR REPLACE FUNCTION directory_company_search_truncate() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE directory_company_tally, directory_search_word, directory_search_variant;
  RETURN NULL;
END $$;
