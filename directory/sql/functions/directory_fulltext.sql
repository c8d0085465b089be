-- Full-text lexemes of a text for related search (directory/search/related.py): folded like
-- every search column (lower case, no accents), then stemmed both as Spanish and as
-- English, because the catalogue and its users write in both and a word's language is
-- not known. Folding first makes "energía" and "energia" one lexeme.
CREATE OR REPLACE FUNCTION directory_fulltext(value text) RETURNS tsvector
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN to_tsvector('spanish'::regconfig, coalesce(directory_fold(value), ''))
    || to_tsvector('english'::regconfig, coalesce(directory_fold(value), ''));
