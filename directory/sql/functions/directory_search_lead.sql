-- The required words of `plan`, a term of several words, in the order the trigram index
-- should narrow a search of `kind` by them (directory_search_found takes the first two):
-- the fewest matches first. A word's matches are bounded by the documents holding the
-- rarest three-letter run of each of its spellings and corrections
-- (directory_search_gram_total); a word of one or two letters, which has no runs, comes
-- last. Ties, and a term of two words, which takes both anyway: the words with the
-- fewest alternatives (a word corrected for typos may have nine), the longest first
-- (then the earlier).
DROP FUNCTION IF EXISTS directory_search_lead(directory_search_plan, integer);
CREATE OR REPLACE FUNCTION directory_search_lead(kind text, plan directory_search_plan)
  RETURNS integer[]
  LANGUAGE plpgsql STABLE PARALLEL SAFE AS $$
DECLARE
  counted boolean := array_length(plan.inside, 1) > 2;
BEGIN
  RETURN ARRAY(
    SELECT i FROM generate_subscripts(plan.inside, 1) AS i
    ORDER BY CASE WHEN counted THEN (
               SELECT CASE WHEN bool_and(length(w.word) >= 3) THEN sum(
                        (SELECT min(coalesce(t.inside, 0))
                         FROM generate_series(1, length(w.word) - 2) AS g(at)
                         LEFT JOIN directory_search_gram_total t
                           ON t.kind = directory_search_lead.kind
                              AND t.gram = substr(w.word, g.at, 3))) END
               FROM (SELECT btrim(p, '% ') FROM unnest(plan.inside[i:i]) AS p
                     UNION ALL SELECT unnest(plan.near_words[i:i])
                     UNION ALL SELECT unnest(plan.far_words[i:i])) AS w(word)
               WHERE w.word IS NOT NULL) END NULLS LAST,
             num_nonnulls(VARIADIC plan.match[i:i]), length(plan.inside[i][1]) DESC, i);
END $$;
