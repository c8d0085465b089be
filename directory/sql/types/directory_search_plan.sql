-- How search reads a term (directory_search_plan builds it, docs/search.md): LIKE
-- patterns over directory_search_doc's text. Every field but `words`, `exact`,
-- `corrected`, `legal` and `spelling` is
-- a two-dimensional array with one row per required word of the term, padded with NULL
-- (which matches nothing); a word matches when its row of `match` does.
CREATE TYPE directory_search_plan AS (
  words text[],    -- the required words, normalised, as typed (one dimension)
  exact text[],    -- a name that is exactly the term ('%| pena roble |%')
  match text[],    -- what each word must match: `inside`, `near` and `far` together
  whole text[],    -- the word as typed (or written out) is a whole word of a name
  start text[],    -- ... the start of a word
  inside text[],   -- ... anywhere inside a word (one or two letters: the start only)
  near text[],     -- as a whole word: a correction one edit away or sounding the
                   -- same, or the word read as two typed together
  far text[],      -- ... a correction two edits away
  corrected text,  -- the term, each word that the catalogue lacks replaced by its nearest one
                   -- when that is as near as spelt as by sound
  loose text[],    -- what each word matches but its corrections (`inside`, and the word
                   -- read as two): with `near_words` and `far_words`, `match` again, in
                   -- the shape the indexes take (docs/search.md)
  near_words text[],  -- `near`'s corrections as words: string_to_array(search_doc, ' ')
                      -- holds one (the index on a document's words)
  far_words text[],   -- `far`'s
  legal text,      -- the legal form typed at the end of the term, which normalising left
                   -- out, as a regular expression for the folded names that end with it
  spelling text    -- the term as written, folded, its letters and digits only
);
