-- For every three-letter run of a word of the companies' search documents and every
-- document length, how many documents hold it: anywhere, at the start of a word, as a
-- whole word, as a whole name. A one-word term of three letters (the broadest searches:
-- "ria" is in a fifth of the catalogue) reads its rank classes' histograms here instead
-- of counting its matches (directory_company_gram_lengths). Counts, not lists of companies: a
-- write changes a few rows by a few units, whatever the size of the catalogue. Kept by
-- directory_company_search_sync.
CREATE TABLE directory_company_gram (
  gram text COLLATE "C" NOT NULL,
  length integer NOT NULL,
  inside integer NOT NULL,
  start integer NOT NULL,
  whole integer NOT NULL,
  exact integer NOT NULL,
  PRIMARY KEY (gram, length)
);
