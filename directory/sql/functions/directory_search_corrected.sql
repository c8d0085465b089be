-- `term` normalised (directory_search_normalize), each of its words that the catalogue's
-- texts lack replaced by the nearest of their words (directory_search_plan): what related
-- search embeds and reads beside the term (directory/search/related.py). A term whose
-- every word the catalogue holds (directory_search_word) has nothing to correct, and is
-- answered without the plan, which costs more than the rest of a related search's SQL.
CREATE OR REPLACE FUNCTION directory_search_corrected(term text) RETURNS text
  LANGUAGE sql STABLE PARALLEL SAFE
BEGIN ATOMIC
  SELECT CASE
    WHEN NOT EXISTS (
      SELECT FROM unnest(string_to_array(t.normal, ' ')) AS w(word)
      WHERE NOT EXISTS (SELECT FROM directory_search_word s WHERE s.word = w.word))
    THEN t.normal
    ELSE (directory_search_plan(term, true)).corrected END
  FROM (SELECT btrim(directory_search_normalize(replace(term, '|', ' '))) AS normal) t;
END;
