-- The plan logo search follows for `term`: the term as typed, or, when that finds no
-- logo, the term with typo corrections (directory_search_plan), as for companies
-- (directory_company_search_plan).
CREATE OR REPLACE FUNCTION directory_logo_search_plan(term text) RETURNS directory_search_plan
  LANGUAGE plpgsql STABLE AS $$
DECLARE
  plan directory_search_plan := directory_search_plan(term, false);
  lead integer := directory_search_lead(plan, 1);
BEGIN
  IF lead IS NULL OR EXISTS (
       SELECT 1 FROM directory_logo l
       WHERE l.search_doc LIKE ANY (plan.match[lead:lead])
         AND directory_search_matches(l.search_doc, plan)) THEN
    RETURN plan;
  END IF;
  RETURN directory_search_plan(term, true);
END $$;
