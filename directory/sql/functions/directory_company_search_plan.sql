-- The plan company search follows for `term` within the filters (NULL: none): the term
-- as typed; when that finds nothing, with typo corrections for the words that match no
-- company on their own (the likely typos); and when that finds nothing either, with
-- corrections for every word (a typo can make another word's substring: "rieta" for
-- "Riera"; words typed together can each be found apart: "autoescuela" for "Auto
-- Escuela"). The page function (directory_company_page) and the admin's search
-- (directory/search.py) start here; directory_company_corrected_plan reads the typos.
CREATE OR REPLACE FUNCTION directory_company_search_plan(
  term text, sectors bigint[], province_folded text) RETURNS directory_search_plan
  LANGUAGE plpgsql STABLE AS $$
DECLARE
  plan directory_search_plan := directory_search_plan(term, '{}', '{}');
BEGIN
  IF plan.words IS NULL OR directory_company_found(plan, sectors, province_folded, NULL) THEN
    RETURN plan;
  END IF;
  RETURN directory_company_corrected_plan(plan, term, sectors, province_folded);
END $$;
