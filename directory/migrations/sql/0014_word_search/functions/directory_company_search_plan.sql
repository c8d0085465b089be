-- The plan company search follows for `term` within the filters (NULL: none): the term
-- as typed; when that finds nothing, with typo corrections for the words that match no
-- company on their own (the likely typos); and when that finds nothing either, with
-- corrections for every word (a typo can make another word: "marina" for "marino").
-- directory_company_search and the admin's search (directory/search.py) both start here.
CREATE OR REPLACE FUNCTION directory_company_search_plan(
  term text, sectors bigint[], province_folded text) RETURNS directory_search_plan
  LANGUAGE plpgsql STABLE AS $$
DECLARE
  plan directory_search_plan := directory_search_plan(term, '{}');
  typed text[] := plan.words;
  unknown text[];
BEGIN
  IF typed IS NULL OR directory_company_found(plan, sectors, province_folded) THEN
    RETURN plan;
  END IF;
  unknown := ARRAY(
    SELECT w.word FROM unnest(typed) WITH ORDINALITY AS w(word, i)
    WHERE NOT EXISTS (SELECT 1 FROM directory_company c
                      WHERE c.search_doc LIKE ANY (plan.match[w.i:w.i])));
  IF cardinality(unknown) > 0 THEN
    plan := directory_search_plan(term, unknown);
    IF cardinality(unknown) = cardinality(typed)
       OR directory_company_found(plan, sectors, province_folded) THEN
      RETURN plan;
    END IF;
  END IF;
  RETURN directory_search_plan(term, typed);
END $$;
