-- The plan company search follows for `term` within the filters (NULL: none): the term
-- as typed, or, when that finds nothing, the first step of typo correction
-- (directory_search_corrected_plan) that finds something, else the last one tried. The
-- page function (directory_company_page) follows the same steps, searching as it goes;
-- the admin and the website (directory/search.py) start here.
CREATE OR REPLACE FUNCTION directory_company_search_plan(
  term text, sectors bigint[], province_folded text) RETURNS directory_search_plan
  LANGUAGE plpgsql STABLE AS $$
DECLARE
  plan directory_search_plan := directory_search_plan(term, '{}', '{}');
  chosen directory_search_plan := plan;
  corrected directory_search_plan;
BEGIN
  FOR step IN 2..3 LOOP
    EXIT WHEN plan.words IS NULL OR directory_company_found(chosen, sectors, province_folded, NULL);
    corrected := directory_search_corrected_plan(plan, term, step, false);
    CONTINUE WHEN corrected IS NULL;
    chosen := corrected;
  END LOOP;
  RETURN chosen;
END $$;
