-- Lower case without accents: every *_fold column and the filters compared with them.
-- Immutable, for generated columns and indexes (unaccent() is STABLE, as its dictionary
-- could change; ours does not). PL/pgSQL: as SQL it is not inlined, so planned per call.
CREATE OR REPLACE FUNCTION directory_fold(value text) RETURNS text
  LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE STRICT AS $$
BEGIN
  RETURN lower(public.unaccent('public.unaccent'::regdictionary, value));
END $$;
