-- Lower case without accents: the folding of every *_fold column and of the filters
-- compared with them. An immutable wrapper, so that generated columns and indexes can
-- use it: unaccent() itself is only STABLE because its dictionary could change; ours
-- does not. PL/pgSQL, not SQL: PostgreSQL inlines an IMMUTABLE SQL body only when what
-- it calls is IMMUTABLE too, and otherwise parses and plans the body again in every
-- statement that calls it (a company's save paid that for each folded column); a
-- PL/pgSQL body is planned once per connection.
CREATE OR REPLACE FUNCTION directory_fold(value text) RETURNS text
  LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE STRICT AS $$
BEGIN
  RETURN lower(public.unaccent('public.unaccent'::regdictionary, value));
END $$;
