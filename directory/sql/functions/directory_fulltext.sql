-- Full-text lexemes for related search: folded (so "energía" and "energia" are one
-- lexeme), then stemmed as Spanish and as English, since a word's language is not known.
CREATE OR REPLACE FUNCTION directory_fulltext(value text) RETURNS tsvector
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN to_tsvector('spanish'::regconfig, coalesce(directory_fold(value), ''))
    || to_tsvector('english'::regconfig, coalesce(directory_fold(value), ''));
