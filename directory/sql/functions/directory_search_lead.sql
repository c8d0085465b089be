-- The required words of `plan`, several (two are both read), in the order the trigram
-- index should narrow a search of `kind` by them (directory_search_found takes two):
-- fewest matches as typed first, bounded by the documents holding each spelling's rarest
-- three-letter run; one of one or two letters last. Not corrections: found in one probe of
-- the index on words, their runs common ("todo", for "toro", holds "tod"). Ties: fewest
-- alternatives, longest, earlier. Each run's count a probe of the key: joined, the table
-- was hashed every call.
DROP FUNCTION IF EXISTS directory_search_lead(directory_search_plan, integer);
CREATE OR REPLACE FUNCTION directory_search_lead(kind text, plan directory_search_plan)
  RETURNS integer[]
  LANGUAGE plpgsql STABLE PARALLEL SAFE AS $$
BEGIN
  RETURN CASE WHEN array_length(plan.inside, 1) = 2 THEN '{1,2}' ELSE ARRAY(
    SELECT i FROM generate_subscripts(plan.inside, 1) AS i
    ORDER BY (SELECT CASE WHEN bool_and(length(w.word) >= 3) THEN sum(
                        (SELECT min(coalesce(
                                  (SELECT t.inside FROM directory_search_gram_total t
                                   WHERE t.kind = directory_search_lead.kind
                                     AND t.gram = substr(w.word, g.at, 3)), 0))
                         FROM generate_series(1, length(w.word) - 2) AS g(at))) END
               FROM (SELECT btrim(p, '% ') FROM unnest(plan.inside[i:i]) AS p) AS w(word)
               WHERE w.word IS NOT NULL) NULLS LAST,
             num_nonnulls(VARIADIC plan.match[i:i]), length(plan.inside[i][1]) DESC, i) END;
END $$;
