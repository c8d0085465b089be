-- The words of three letters or more that typo correction picks from
-- (directory_search_corrections): the words of names, alternative names, logo titles,
-- sector names and "about" texts, the last two because related search corrects a term
-- before it embeds it, and the names of kinds of business (directory/search/business_terms.py,
-- added by the initial migration). With each word, its sound key (directory_search_key), and
-- whether a name, an alternative name or a logo title has held it: such a word is taken
-- to match as typed (directory_search_corrected_plan). Words are only ever added, and
-- `named` only ever set: a word that no text holds any more stays, and a correction to
-- it matches nothing, so it costs a row and never a wrong answer. "C" collation: prefix
-- lookups (directory_search_splits) walk the primary key.
CREATE TABLE directory_search_word (
  word text COLLATE "C" PRIMARY KEY,
  key text NOT NULL,
  named boolean NOT NULL
);
