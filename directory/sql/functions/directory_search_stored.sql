-- What directory_search_variant stores of a lexicon word (`word`, its sound key `key`):
-- its key with one letter out, its spelling with its budget's (at least one); a typed word
-- finds it when its own lookups (directory_search_lookups) hold one of these.
CREATE OR REPLACE FUNCTION directory_search_stored(word text, key text) RETURNS text[]
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN directory_search_deletions(key, 1)
         || directory_search_deletions(word, greatest(directory_search_budget(word), 1));
