-- Lower case without accents: the folding of every *_fold column and of the filters
-- compared with them. An immutable wrapper, so that generated columns and indexes can
-- use it: unaccent() itself is only STABLE because its dictionary could change; ours
-- does not. PL/pgSQL: as SQL it could not be inlined, and each statement calling it
-- planned it again (docs/sql.md).
CREATE OR REPLACE FUNCTION directory_fold(value text) RETURNS text
  LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE STRICT AS $$
BEGIN
  RETURN lower(public.unaccent('public.unaccent'::regdictionary, value));
END $$;
