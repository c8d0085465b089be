-- The logos that match `plan`, a term of several words, by their title or their
-- company's name, the window of them in search order (docs/search.md) and how many
-- match in all: for directory_logo_search, found as directory_company_search_words
-- finds companies, with generic plans for the same reason.
CREATE OR REPLACE FUNCTION directory_logo_search_words(
  plan directory_search_plan, skip integer, take integer, OUT total bigint, OUT ids uuid[])
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
  -- By the two lead words, as directory_company_search_words reads them.
  IF num_nonnulls(VARIADIC plan.match[lead:lead] || plan.match[second:second]) > 2 THEN
    matched := ARRAY(
      SELECT l.id FROM directory_logo l
      WHERE l.search_doc ~ lead_regex AND l.search_doc ~ second_regex
        AND directory_search_matches(l.search_doc, plan));
  ELSE
    matched := ARRAY(
      SELECT l.id FROM directory_logo l
      WHERE l.search_doc LIKE ANY (plan.match[lead:lead])
        AND l.search_doc LIKE ANY (plan.match[second:second])
        AND directory_search_matches(l.search_doc, plan));
  END IF;
  SELECT coalesce(array_agg(r.id ORDER BY r.position)
                    FILTER (WHERE r.position > skip AND r.position <= skip + take), '{}'),
         count(*)
  INTO ids, total
  FROM (SELECT l.id,
               row_number() OVER (ORDER BY l.is_current DESC,
                                           directory_search_rank(l.search_doc, plan),
                                           length(l.search_doc), l.title_fold, l.id)
                 AS position
        FROM directory_logo l WHERE l.id = ANY (matched)) r;
END $$;
