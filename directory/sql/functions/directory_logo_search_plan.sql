-- The plan logo search follows for `term`, chosen as for companies
-- (directory_company_search_plan): as typed; else with corrections for the words that
-- match no logo on their own; else with corrections for every word.
CREATE OR REPLACE FUNCTION directory_logo_search_plan(term text)
  RETURNS directory_search_plan
  LANGUAGE plpgsql STABLE AS $$
DECLARE
  plan directory_search_plan := directory_search_plan(term, '{}', '{}');
BEGIN
  IF plan.words IS NULL OR directory_logo_found(plan, NULL) THEN
    RETURN plan;
  END IF;
  RETURN directory_logo_corrected_plan(plan, term);
END $$;
