-- Each word of three letters or more of each search document of `kind` ('company' or
-- 'logo'), once per document, with the document's length, whether its row is current
-- (every company is) and whether the word is also a whole name of it ('| word |'). A
-- one-word term of four letters or more reads here, through this key alone, how its
-- matches fall into rank classes by length (directory_search_posting_classes) and so
-- their exact count, where the rows themselves cost a heap page each: `total` has to
-- count every match, and a count kept per word would count twice a document holding two
-- of the words a term matches ("gallego y gallardo"). Kept by directory_search_grams_add.
CREATE TABLE directory_search_posting (
  kind text COLLATE "C" NOT NULL,
  word text COLLATE "C" NOT NULL,
  id uuid NOT NULL,
  is_current boolean NOT NULL,
  length integer NOT NULL,
  named boolean NOT NULL,
  PRIMARY KEY (kind, word, id) INCLUDE (is_current, length, named)
);
