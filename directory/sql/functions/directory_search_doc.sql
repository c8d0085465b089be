-- What search matches a company (its names) or a logo (title, company's name) against: the
-- names normalised, abbreviations written out, between "|": ' | bodegas pena roble | bpr | '.
-- Words between spaces, so LIKE patterns under one trigram index tell a whole word
-- (' roble '), a start (' rob'), an exact name ('| pena roble |'). PL/pgSQL, as directory_fold.
CREATE OR REPLACE FUNCTION directory_search_doc(name text, other_names text[]) RETURNS text
  LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
  RETURN public.directory_search_expand(public.directory_search_normalize(
    '|' || coalesce(name, '') || '|' || coalesce(nullif(array_to_string(other_names, '|'), '') || '|', '')));
END $$;
