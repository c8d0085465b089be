-- The three-letter runs of the words of a search document (directory_search_doc), each
-- once, with whether one of them starts a word, is a whole word, or is a whole name: what
-- the LIKE patterns '% ria%', '% ria %' and '%| ria |%' of a one-word term would find
-- (directory_search_gram).
CREATE OR REPLACE FUNCTION directory_search_grams(doc text)
  RETURNS TABLE (gram text, start boolean, whole boolean, exact boolean)
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
BEGIN ATOMIC
  SELECT substr(w.word, i, 3), bool_or(i = 1), bool_or(length(w.word) = 3),
         bool_or(w.alone AND length(w.word) = 3)
  FROM (SELECT t.word, t.word = btrim(n.name) AS alone
        FROM unnest(string_to_array(doc, '|')) AS n(name),
             unnest(string_to_array(btrim(n.name), ' ')) AS t(word)
        WHERE length(t.word) >= 3) w,
       generate_series(1, length(w.word) - 2) AS i
  GROUP BY 1;
END;
