-- The companies within the filters that match `plan`, a term of several words, the
-- window of them in search order (docs/search.md) and how many match in all: for
-- directory_company_search. Such terms match few companies: all of them are found,
-- then ranked, and the total and the window taken in one pass.
--
-- Generic plans: PostgreSQL would otherwise plan these statements again for every
-- term (their cost estimates differ with the patterns), although the plan is always
-- the same (the trigram index by the two lead words), and planning them costs about
-- as much as running them.
CREATE OR REPLACE FUNCTION directory_company_search_words(
  plan directory_search_plan, sectors bigint[], province_folded text, skip integer,
  take integer, OUT total bigint, OUT ids uuid[])
  LANGUAGE plpgsql STABLE
  SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  lead integer := directory_search_lead(plan, 1);
  second integer := directory_search_lead(plan, 2);
  -- Once per search, not once per row that the index hands over for rechecking.
  lead_regex text := directory_search_regex(plan.match[lead:lead]);
  second_regex text := directory_search_regex(plan.match[second:second]);
  matched uuid[];
BEGIN
  -- The trigram index finds them by the two lead words; when those have
  -- alternatives (a corrected word has up to nine), each as one regular expression
  -- (directory_search_regex), since LIKE ANY over both would take a scan for every
  -- pair of their patterns, while a word as typed is checked faster by LIKE.
  IF num_nonnulls(VARIADIC plan.match[lead:lead] || plan.match[second:second]) > 2 THEN
    matched := ARRAY(
      SELECT c.id FROM directory_company c
      WHERE c.search_doc ~ lead_regex AND c.search_doc ~ second_regex
        AND directory_search_matches(c.search_doc, plan)
        AND (sectors IS NULL OR c.sector_id = ANY (sectors))
        AND (province_folded IS NULL OR c.province_fold = province_folded));
  ELSE
    matched := ARRAY(
      SELECT c.id FROM directory_company c
      WHERE c.search_doc LIKE ANY (plan.match[lead:lead])
        AND c.search_doc LIKE ANY (plan.match[second:second])
        AND directory_search_matches(c.search_doc, plan)
        AND (sectors IS NULL OR c.sector_id = ANY (sectors))
        AND (province_folded IS NULL OR c.province_fold = province_folded));
  END IF;
  SELECT coalesce(array_agg(r.id ORDER BY r.position)
                    FILTER (WHERE r.position > skip AND r.position <= skip + take), '{}'),
         count(*)
  INTO ids, total
  FROM (SELECT c.id,
               row_number() OVER (ORDER BY directory_search_rank(c.search_doc, plan),
                                           length(c.search_doc), c.name_fold, c.id) AS position
        FROM directory_company c WHERE c.id = ANY (matched)) r;
END $$;
