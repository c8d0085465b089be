-- The plan company search follows for `term` within the filters (NULL: none): the term
-- as typed; when that finds nothing, with typo corrections for the words that match no
-- company on their own (the likely typos); and when that finds nothing either, with
-- corrections for every word (a typo can make another word's substring: "rieta" for
-- "Riera"; words typed together can each be found apart: "autoescuela" for "Auto
-- Escuela"). The page function (directory_company_page) and the admin's search
-- (directory/search.py) start here.
CREATE OR REPLACE FUNCTION directory_company_search_plan(
  term text, sectors bigint[], province_folded text) RETURNS directory_search_plan
  LANGUAGE plpgsql STABLE AS $$
DECLARE
  plan directory_search_plan := directory_search_plan(term, '{}');
  typed text[] := plan.words;
  unknown text[];
BEGIN
  IF typed IS NULL OR directory_company_found(plan, sectors, province_folded, NULL) THEN
    RETURN plan;
  END IF;
  -- The words that match nothing on their own: the likely typos.
  unknown := ARRAY(
    SELECT w.word FROM unnest(typed) WITH ORDINALITY AS w(word, i)
    WHERE NOT directory_company_found(plan, NULL, NULL, w.i::integer));
  IF cardinality(unknown) > 0 THEN
    plan := directory_search_plan(term, unknown);
    IF cardinality(unknown) = cardinality(typed)
       OR directory_company_found(plan, sectors, province_folded, NULL) THEN
      RETURN plan;
    END IF;
  END IF;
  RETURN directory_search_plan(term, typed);
END $$;
