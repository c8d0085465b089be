-- For every three-letter run of a word of the search documents of `kind` ('company' or
-- 'logo'), every document length and current or not (every company is current), how
-- many documents hold it: anywhere, at the start of a word, as a whole word, as a whole
-- name. A one-word term of three letters (the broadest searches: "ria" is in a fifth of
-- the catalogue) reads its rank classes' histograms here instead of counting its matches
-- (directory_search_gram_classes). Counts, not lists of rows: a write changes a few rows
-- by a few units, whatever the size of the catalogue. Kept by directory_search_grams_add,
-- which the companies' and logos' statement triggers call. Pages kept 30% free
-- (fillfactor): a write moves each run of its documents by a unit, and a row updated in
-- its own page is not indexed again (a HOT update), which made a rename's counts a
-- quarter cheaper at 1,000,000 companies.
CREATE TABLE directory_search_gram (
  kind text COLLATE "C" NOT NULL,
  gram text COLLATE "C" NOT NULL,
  length integer NOT NULL,
  is_current boolean NOT NULL,
  inside integer NOT NULL,
  start integer NOT NULL,
  whole integer NOT NULL,
  exact integer NOT NULL,
  PRIMARY KEY (kind, gram, length, is_current)
) WITH (fillfactor = 70);
