-- How many companies contain each gram: the exact total of a three-character search,
-- and how a longer term picks its rarest grams to look up in the trigram index.
CREATE TABLE directory_company_gram_total (
  gram text PRIMARY KEY,
  size integer NOT NULL
);
