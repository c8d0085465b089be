CREATE TABLE directory_company_gram (
  gram text NOT NULL,
  tier smallint NOT NULL,
  sim real NOT NULL,
  size integer NOT NULL,  -- cardinality(ids), read without detoasting ids
  ids uuid[] NOT NULL,    -- in no particular order
  -- Walking a term's groups in order reads the index only.
  PRIMARY KEY (gram, tier, sim) INCLUDE (size)
);
