-- The lexicon's words with a sound key of nine letters or more, by its length: a new
-- word whose key has eight or more can be in the corrections of such a word though its
-- own lookups do not find it (directory_search_learn, directory_search_near).
CREATE INDEX directory_search_word_key_length ON directory_search_word (length(key))
  WHERE length(key) >= 9;
