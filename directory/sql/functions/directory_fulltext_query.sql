-- A term's query against directory_company_fulltext: any of its lexemes (an OR), so each
-- word brings its own evidence and the rank rewards documents holding several; NULL for
-- only stopwords. Quoted, so the lexemes stay exactly those directory_fulltext stores.
CREATE OR REPLACE FUNCTION directory_fulltext_query(term text) RETURNS tsquery
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
BEGIN ATOMIC
  SELECT string_agg('''' || replace(l.lexeme, '''', '''''') || '''', ' | '
                    ORDER BY l.lexeme)::tsquery
  FROM unnest(tsvector_to_array(directory_fulltext(term))) AS l(lexeme);
END;
