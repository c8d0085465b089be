-- Each catalogue word's sound key and spelling, and each with one letter taken out, a
-- spelling of eight letters or more also with two (directory_search_deletions): two keys
-- or spellings within those edits always share one of these, so a term's word finds
-- every word within its budget by looking up its own (directory_search_corrections).
CREATE TABLE directory_search_variant (
  variant text NOT NULL,
  word text COLLATE "C" NOT NULL,
  PRIMARY KEY (variant, word)
);
