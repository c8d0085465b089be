-- The plan company search follows for `term` within the filters (NULL: none): the term
-- read with every word's corrections, and, when that finds nothing, with its words also
-- read as two typed together (directory_search_plan). The page function
-- (directory_company_page) follows the same steps, searching as it goes; the admin and
-- the website (directory/search.py) start here.
CREATE OR REPLACE FUNCTION directory_company_search_plan(
  term text, sectors bigint[], province_folded text) RETURNS directory_search_plan
  LANGUAGE plpgsql STABLE AS $$
DECLARE
  plan directory_search_plan := directory_search_plan(term, false);
BEGIN
  IF plan.words IS NULL OR directory_company_found(plan, sectors, province_folded) THEN
    RETURN plan;
  END IF;
  RETURN directory_search_plan(term, true);
END $$;
