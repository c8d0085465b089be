-- `term` normalised, each word the catalogue lacks replaced by its nearest (the plan): what
-- related search embeds. A term whose every word the catalogue holds skips the plan, which
-- costs more than the rest of a related search's SQL.
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
