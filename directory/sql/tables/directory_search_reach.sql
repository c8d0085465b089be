-- Each lexicon word's sound key of eight letters or more with two letters taken out
-- (directory_search_deletions): a typed word looks these up (directory_search_lookups)
-- but directory_search_variant stores keys with one out, so a word can find another
-- that does not find it. Read only when a word is added (directory_search_near_add), to
-- find the words whose corrections now hold it.
CREATE TABLE directory_search_reach (
  variant text NOT NULL,
  word text COLLATE "C" NOT NULL,
  PRIMARY KEY (variant, word)
);
