-- `term` normalised (directory_search_normalize), each of its words that the catalogue's
-- texts lack replaced by the nearest of their words (directory_search_plan): what related
-- search embeds and reads beside the term (directory/search/related.py).
CREATE OR REPLACE FUNCTION directory_search_corrected(term text) RETURNS text
  LANGUAGE sql STABLE PARALLEL SAFE
  RETURN (directory_search_plan(term, true)).corrected;
