-- Lower case without accents: the folding of every *_fold column and of the filters
-- compared with them. An immutable wrapper, so that generated columns and indexes can
-- use it: unaccent() itself is only STABLE because its dictionary could change; ours
-- does not.
CREATE OR REPLACE FUNCTION directory_fold(value text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  RETURN lower(public.unaccent('public.unaccent'::regdictionary, value));
