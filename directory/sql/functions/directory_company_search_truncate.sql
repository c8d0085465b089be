-- Emptying the companies (Django's test flush) empties the tally and the gram counts
-- directory_company_search_sync keeps beside them. The lexicon stays: words are only ever
-- added to it (directory_search_word.sql).
CREATE OR REPLACE FUNCTION directory_company_search_truncate() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE directory_company_tally, directory_company_gram;
  RETURN NULL;
END $$;
