-- The plan logo search follows for `term`, chosen as for companies
-- (directory_company_search_plan).
CREATE OR REPLACE FUNCTION directory_logo_search_plan(term text)
  RETURNS directory_search_plan
  LANGUAGE plpgsql STABLE AS $$
DECLARE
  plan directory_search_plan := directory_search_plan(term, false);
BEGIN
  IF plan.words IS NULL OR directory_logo_found(plan) THEN
    RETURN plan;
  END IF;
  RETURN directory_search_plan(term, true);
END $$;
