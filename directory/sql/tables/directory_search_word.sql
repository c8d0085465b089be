-- The words of three letters or more that typo correction picks from
-- (directory_search_corrections): the words of names, alternative names, logo titles,
-- sector names and "about" texts, the last two because related search corrects a term
-- before it embeds it, and the names of kinds of business (directory/business_terms.py,
-- added by migration 0014). With each word, its sound key (directory_search_key).
-- Words are only ever added: a word that no text holds any more stays, and a correction
-- to it matches nothing, so it costs a row and never a wrong answer. "C" collation:
-- prefix lookups (directory_search_splits) walk the primary key.
CREATE TABLE directory_search_word (
  word text COLLATE "C" PRIMARY KEY,
  key text NOT NULL
);
