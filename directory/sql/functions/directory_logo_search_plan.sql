-- The plan logo search follows for `term`, chosen as for companies
-- (directory_company_search_plan): as typed, or the first step of typo correction that
-- finds a logo, else the last one tried.
CREATE OR REPLACE FUNCTION directory_logo_search_plan(term text)
  RETURNS directory_search_plan
  LANGUAGE plpgsql STABLE AS $$
DECLARE
  plan directory_search_plan := directory_search_plan(term, '{}', '{}');
  chosen directory_search_plan := plan;
  corrected directory_search_plan;
BEGIN
  FOR step IN 2..3 LOOP
    EXIT WHEN plan.words IS NULL OR directory_logo_found(chosen, NULL);
    corrected := directory_search_corrected_plan(plan, term, step, true);
    CONTINUE WHEN corrected IS NULL;
    chosen := corrected;
  END LOOP;
  RETURN chosen;
END $$;
