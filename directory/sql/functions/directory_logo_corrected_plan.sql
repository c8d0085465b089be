-- The plan for `term` once `plan`, the term as typed, found no logo
-- (directory_logo_search_plan): corrected as directory_company_corrected_plan says.
CREATE OR REPLACE FUNCTION directory_logo_corrected_plan(plan directory_search_plan, term text)
  RETURNS directory_search_plan
  LANGUAGE plpgsql STABLE AS $$
DECLARE
  typed text[] := plan.words;
  unknown text[];
  unfamiliar text[];
BEGIN
  -- The words that match nothing on their own: the likely typos.
  unknown := ARRAY(
    SELECT w.word FROM unnest(typed) WITH ORDINALITY AS w(word, i)
    WHERE NOT directory_logo_found(plan, w.i::integer));
  IF cardinality(unknown) > 0 THEN
    plan := directory_search_plan(term, unknown, unknown);
    IF cardinality(unknown) = cardinality(typed)
       OR directory_logo_found(plan, NULL) THEN
      RETURN plan;
    END IF;
  END IF;
  unfamiliar := ARRAY(
    SELECT w.word FROM unnest(typed) AS w(word)
    WHERE NOT EXISTS (SELECT 1 FROM directory_search_word s WHERE s.word = w.word));
  RETURN directory_search_plan(term, unfamiliar, typed);
END $$;
