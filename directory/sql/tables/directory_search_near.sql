-- Each lexicon word's corrections (directory_search_corrections with a `distance`), stored
-- once, so that a term's correctly typed word, the common case, costs one index read
-- (directory_search_plan); a word the lexicon lacks still has its own computed. Every
-- word of four letters or more has its rows, whether or not the neighbour is `named`
-- (read at search time: it is set later than the word is added). directory_search_learn
-- keeps the lists exact as words are added: the new word's own, and the new word in
-- those of the words whose corrections now hold it.
CREATE TABLE directory_search_near (
  word text COLLATE "C" NOT NULL,
  near text COLLATE "C" NOT NULL,
  distance smallint NOT NULL,
  PRIMARY KEY (word, near)
);
