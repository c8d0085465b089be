-- The ways `typed` (a normalised word of a term) reads as two words written together,
-- as 'a b': each part a word of the catalogue, the second perhaps only its start, or a
-- word of one or two letters (an elided article or preposition: "lalqueria" is
-- 'l alqueria', "den" is 'd en'; two such, or one and a word of three letters or more,
-- since a short start of a word follows nearly any word). So "penaroble" finds
-- "Peña-Roble" and "agrosur" finds "Agro Sur". A loop of primary-key probes, one or two per place to split.
CREATE OR REPLACE FUNCTION directory_search_splits(typed text) RETURNS SETOF text
  LANGUAGE plpgsql STABLE PARALLEL SAFE AS $$
DECLARE
  head text;
  tail text;
BEGIN
  FOR i IN 1..length(typed) - 1 LOOP
    head := left(typed, i);
    tail := substr(typed, i + 1);
    IF (i <= 2 OR EXISTS (SELECT 1 FROM directory_search_word s WHERE s.word = head))
       AND (length(tail) <= 2 AND i <= 2
            OR length(tail) > 2 AND EXISTS (SELECT 1 FROM directory_search_word s
                                            WHERE s.word >= tail AND s.word < tail || '~')) THEN
      RETURN NEXT head || ' ' || tail;
    END IF;
  END LOOP;
END $$;
