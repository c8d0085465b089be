-- The plan for `term` once `plan`, the term as typed, found no logo
-- (directory_logo_search_plan): with typo corrections for the words that match nothing
-- on their own, or, when that finds nothing either, for every word.
CREATE OR REPLACE FUNCTION directory_logo_corrected_plan(plan directory_search_plan, term text)
  RETURNS directory_search_plan
  LANGUAGE plpgsql STABLE AS $$
DECLARE
  typed text[] := plan.words;
  unknown text[];
BEGIN
  -- The words that match nothing on their own: the likely typos.
  unknown := ARRAY(
    SELECT w.word FROM unnest(typed) WITH ORDINALITY AS w(word, i)
    WHERE NOT directory_logo_found(plan, w.i::integer));
  IF cardinality(unknown) > 0 THEN
    plan := directory_search_plan(term, unknown);
    IF cardinality(unknown) = cardinality(typed)
       OR directory_logo_found(plan, NULL) THEN
      RETURN plan;
    END IF;
  END IF;
  RETURN directory_search_plan(term, typed);
END $$;
