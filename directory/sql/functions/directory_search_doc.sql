-- What search matches a company (its names) or a logo (its title and its company's name)
-- against: the names normalised, abbreviations written out, between "|" marks:
-- ' | bodegas pena roble | bpr | '. Words between spaces, so that LIKE patterns under one
-- trigram index tell a whole word (' roble '), a word's start (' rob') and an exact name
-- ('| pena roble |') apart. PL/pgSQL, as directory_fold (array_to_string is STABLE).
CREATE OR REPLACE FUNCTION directory_search_doc(name text, other_names text[]) RETURNS text
  LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
  RETURN public.directory_search_expand(public.directory_search_normalize(
    '|' || coalesce(name, '') || '|' || coalesce(nullif(array_to_string(other_names, '|'), '') || '|', '')));
END $$;
