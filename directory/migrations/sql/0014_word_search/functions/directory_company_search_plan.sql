-- The plan company search follows for `term` within the filters (NULL: none): the term as
-- typed, or, when that finds nothing, the term with typo corrections
-- (directory_search_plan). directory_company_search and the admin's search
-- (directory/search.py) both start here.
CREATE OR REPLACE FUNCTION directory_company_search_plan(
  term text, sectors bigint[], province_folded text) RETURNS directory_search_plan
  LANGUAGE plpgsql STABLE AS $$
DECLARE
  plan directory_search_plan := directory_search_plan(term, false);
  lead integer := directory_search_lead(plan, 1);
BEGIN
  IF lead IS NULL OR EXISTS (
       SELECT 1 FROM directory_company c
       WHERE c.search_doc LIKE ANY (plan.match[lead:lead])
         AND directory_search_matches(c.search_doc, plan)
         AND (sectors IS NULL OR c.sector_id = ANY (sectors))
         AND (province_folded IS NULL OR c.province_fold = province_folded)) THEN
    RETURN plan;
  END IF;
  RETURN directory_search_plan(term, true);
END $$;
