-- The ways `typed` (a normalised word of a term) reads as two words written together,
-- as 'a b': each part a word of the catalogue, the second perhaps only its start, or a
-- word of one or two letters (an elided article or preposition: "lalqueria" is
-- 'l alqueria', "den" is 'd en'). So "penaroble" finds "Peña-Roble" and "agrosur"
-- finds "Agro Sur".
CREATE OR REPLACE FUNCTION directory_search_splits(typed text) RETURNS SETOF text
  LANGUAGE sql STABLE PARALLEL SAFE
BEGIN ATOMIC
  SELECT left(typed, i) || ' ' || substr(typed, i + 1)
  FROM generate_series(1, length(typed) - 1) AS i
  WHERE (i <= 2 OR EXISTS (SELECT 1 FROM directory_search_word s WHERE s.word = left(typed, i)))
    AND (length(typed) - i <= 2
         OR EXISTS (SELECT 1 FROM directory_search_word s
                    WHERE s.word >= substr(typed, i + 1) AND s.word < substr(typed, i + 1) || '~'))
  ORDER BY i;
END;
