-- The three-letter runs of the words of a search document (directory_search_doc), each
-- once, with whether one of them starts a word, is a whole word, or is a whole name: what
-- the LIKE patterns '% ria%', '% ria %' and '%| ria |%' of a one-word term would find
-- (directory_search_gram). A document holds only letters, digits, spaces and "|", so
-- pg_trgm's trigrams without a space are those runs, each once: it splits them in C,
-- where splitting each word in SQL cost a load of 1,000,000 minutes.
CREATE OR REPLACE FUNCTION directory_search_grams(doc text)
  RETURNS TABLE (gram text, start boolean, whole boolean, exact boolean)
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
BEGIN ATOMIC
  SELECT t.gram, strpos(doc, ' ' || t.gram) > 0, strpos(doc, ' ' || t.gram || ' ') > 0,
         strpos(doc, '| ' || t.gram || ' |') > 0
  FROM unnest(public.show_trgm(doc)) AS t(gram)
  WHERE strpos(t.gram, ' ') = 0;
END;
