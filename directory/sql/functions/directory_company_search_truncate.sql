-- Emptying the companies (Django's test flush), and so the logos that reference them,
-- empties every table their triggers keep. The lexicon stays: words are only ever added
-- to it (directory_search_word.sql).
CREATE OR REPLACE FUNCTION directory_company_search_truncate() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE directory_company_tally, directory_company_summary, directory_company_fulltext,
    directory_search_gram, directory_search_gram_total, directory_search_posting;
  RETURN NULL;
END $$;
