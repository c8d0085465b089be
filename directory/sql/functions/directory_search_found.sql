-- The rows of `kind` within the filters (directory_search_source) that match `plan`, a
-- term of several words, for directory_search to rank (directory_search_ranked). Such
-- terms match few rows. The trigram index finds them by the two lead words
-- (directory_search_lead); when those have alternatives (a corrected word has up to
-- nine), each as one regular expression (directory_search_regex), since LIKE ANY over
-- both would take a scan for every pair of their patterns, while a word as typed is
-- checked faster by LIKE.
--
-- Generic plans: PostgreSQL would otherwise plan these statements again for every
-- term (their cost estimates differ with the patterns), although the plan is always
-- the same (the trigram index by the two lead words), and planning them costs about
-- as much as running them.
CREATE OR REPLACE FUNCTION directory_search_found(
  kind text, plan directory_search_plan, sectors bigint[], province_folded text)
  RETURNS uuid[]
  LANGUAGE plpgsql STABLE
  SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  lead integer := directory_search_lead(plan, 1);
  second integer := directory_search_lead(plan, 2);
  -- Once per search, not once per row that the index hands over for rechecking.
  lead_regex text := directory_search_regex(plan.match[lead:lead]);
  second_regex text := directory_search_regex(plan.match[second:second]);
BEGIN
  IF num_nonnulls(VARIADIC plan.match[lead:lead] || plan.match[second:second]) > 2 THEN
    RETURN ARRAY(
      SELECT r.id FROM directory_search_source(kind, sectors, province_folded) r
      WHERE r.search_doc ~ lead_regex AND r.search_doc ~ second_regex
        AND directory_search_matches(r.search_doc, plan));
  END IF;
  RETURN ARRAY(
    SELECT r.id FROM directory_search_source(kind, sectors, province_folded) r
    WHERE r.search_doc LIKE ANY (plan.match[lead:lead])
      AND r.search_doc LIKE ANY (plan.match[second:second])
      AND directory_search_matches(r.search_doc, plan));
END $$;
