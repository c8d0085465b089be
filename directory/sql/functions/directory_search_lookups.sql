-- What a typed word (`typed`, its sound key `wanted`) looks up in directory_search_variant
-- for its corrections (directory_search_corrections): its key with as many letters out as
-- the key's budget allows, its spelling with two from six letters (a word of six may be
-- two edits from one of eight), else its budget's. The lexicon stores fewer of each word
-- (directory_search_stored), so two words need not find each other alike
-- (directory_search_learn).
CREATE OR REPLACE FUNCTION directory_search_lookups(typed text, wanted text) RETURNS text[]
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN directory_search_deletions(wanted, directory_search_budget(wanted))
         || directory_search_deletions(typed, CASE WHEN length(typed) >= 6 THEN 2
                                                   ELSE directory_search_budget(typed) END);
