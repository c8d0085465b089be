-- Emptying the companies (Django's test flush) empties the tally and the gram counts
-- directory_company_search_sync keeps beside them, and the logos' gram counts too: the
-- companies and the logos reference each other (a company's current logo), so one is
-- never emptied without the other. The lexicon stays: words are only ever added to it
-- (directory_search_word.sql).
CREATE OR REPLACE FUNCTION directory_company_search_truncate() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE directory_company_tally, directory_search_gram, directory_search_gram_total;
  RETURN NULL;
END $$;
