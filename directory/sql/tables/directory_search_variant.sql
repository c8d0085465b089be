-- Each catalogue word's sound key and that key with one letter taken out
-- (directory_search_variants): two keys one edit apart always share one of these, so a
-- term's word finds every word one edit away by looking up its own.
CREATE TABLE directory_search_variant (
  variant text NOT NULL,
  word text COLLATE "C" NOT NULL,
  PRIMARY KEY (variant, word)
);
