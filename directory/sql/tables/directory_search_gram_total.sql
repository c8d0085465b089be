-- For every three-letter run of a word of the search documents of `kind`, how many
-- documents hold it: directory_search_gram's `inside` summed over lengths and current or
-- not. A document holding a word holds each of its runs, so the rarest run's count
-- bounds the word's matches: directory_search_lead narrows a term of several words by
-- its rarest words with it. Kept by directory_search_grams_add beside
-- directory_search_gram.
CREATE TABLE directory_search_gram_total (
  kind text COLLATE "C" NOT NULL,
  gram text COLLATE "C" NOT NULL,
  inside integer NOT NULL,
  PRIMARY KEY (kind, gram)
);
