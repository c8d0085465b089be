-- The window of rows `skip` to `skip + take`, in search order, of the rows of `kind`
-- within the filters (directory_search_source) that match `plan`, or of `matched` when
-- given, and how many there are in all. The search order of company and logo search
-- alike (docs/search.md), written here only: current logos first, then
-- directory_search_rank, then the shorter search document, the name or title, the id.
-- It ranks all of them: for a term of several words, which matches few rows, for a
-- one-word term that matches few, and for the rows of one rank class that
-- directory_search picks.
--
-- Generic plans: PostgreSQL would otherwise plan these statements again for every
-- term (their cost estimates differ with the patterns), although the plan is always
-- the same (the trigram index by the lead words), and planning them costs about as
-- much as running them.
CREATE OR REPLACE FUNCTION directory_search_ranked(
  kind text, plan directory_search_plan, sectors bigint[], province_folded text,
  matched uuid[], skip integer, take integer, OUT total bigint, OUT ids uuid[])
  LANGUAGE plpgsql STABLE
  SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  lead integer := directory_search_lead(plan, 1);
  second integer := directory_search_lead(plan, 2);
  -- Once per search, not once per row that the index hands over for rechecking.
  lead_regex text := directory_search_regex(plan.match[lead:lead]);
  second_regex text := directory_search_regex(plan.match[second:second]);
BEGIN
  -- The trigram index finds a term of several words by its two lead words; when those
  -- have alternatives (a corrected word has up to nine), each as one regular expression
  -- (directory_search_regex), since LIKE ANY over both would take a scan for every pair
  -- of their patterns, while a word as typed is checked faster by LIKE.
  IF matched IS NOT NULL THEN
    NULL;
  ELSIF second IS NULL THEN
    matched := ARRAY(
      SELECT r.id FROM directory_search_source(kind, sectors, province_folded) r
      WHERE r.search_doc LIKE ANY (plan.match));
  ELSIF num_nonnulls(VARIADIC plan.match[lead:lead] || plan.match[second:second]) > 2 THEN
    matched := ARRAY(
      SELECT r.id FROM directory_search_source(kind, sectors, province_folded) r
      WHERE r.search_doc ~ lead_regex AND r.search_doc ~ second_regex
        AND directory_search_matches(r.search_doc, plan));
  ELSE
    matched := ARRAY(
      SELECT r.id FROM directory_search_source(kind, sectors, province_folded) r
      WHERE r.search_doc LIKE ANY (plan.match[lead:lead])
        AND r.search_doc LIKE ANY (plan.match[second:second])
        AND directory_search_matches(r.search_doc, plan));
  END IF;
  SELECT coalesce(array_agg(r.id ORDER BY r.position)
                    FILTER (WHERE r.position > skip AND r.position <= skip + take), '{}'),
         count(*)
  INTO ids, total
  FROM (SELECT r.id,
               row_number() OVER (ORDER BY r.is_current DESC,
                                           directory_search_rank(r.search_doc, plan),
                                           length(r.search_doc), r.tie, r.id) AS position
        FROM directory_search_source(kind, NULL, NULL) r WHERE r.id = ANY (matched)) r;
END $$;
