CREATE TABLE directory_logo_gram (
  gram text NOT NULL,
  lead smallint NOT NULL,  -- 0 for a current logo, else 1: current logos come first
  tier smallint NOT NULL,
  sim real NOT NULL,
  size integer NOT NULL,   -- cardinality(ids), read without detoasting ids
  ids uuid[] NOT NULL,     -- in no particular order
  PRIMARY KEY (gram, lead, tier, sim) INCLUDE (size)
);
