-- What search matches a company (its name and alternative names) or a logo (its title
-- and its company's name) against: the names, normalised (directory_search_normalize)
-- with abbreviations written out (directory_search_expand), between "|" marks:
--   ' | bodegas pena roble | bpr | '
-- Every word stands between spaces, so that search tells a whole word (' roble '), the
-- start of a word (' rob') and a name that is exactly the term ('| pena roble |') apart
-- with LIKE patterns (directory_search_plan), under one trigram index. PL/pgSQL, as
-- directory_fold (array_to_string is STABLE).
CREATE OR REPLACE FUNCTION directory_search_doc(name text, other_names text[]) RETURNS text
  LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
  RETURN public.directory_search_expand(public.directory_search_normalize(
    '|' || coalesce(name, '') || '|' || coalesce(nullif(array_to_string(other_names, '|'), '') || '|', '')));
END $$;
