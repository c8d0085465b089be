-- The query of a search term against directory_company_fulltext: any of its lexemes
-- (an OR), so that every word of "seguro de coche" brings its own evidence and the
-- ranking, not the match, rewards documents holding several. NULL when the term has
-- no lexeme (only stopwords). The lexemes are quoted into tsquery input, never parsed
-- again, so they stay exactly those directory_fulltext stores.
CREATE OR REPLACE FUNCTION directory_fulltext_query(term text) RETURNS tsquery
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
BEGIN ATOMIC
  SELECT string_agg('''' || replace(l.lexeme, '''', '''''') || '''', ' | '
                    ORDER BY l.lexeme)::tsquery
  FROM unnest(tsvector_to_array(directory_fulltext(term))) AS l(lexeme);
END;
