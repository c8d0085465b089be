-- The plan logo search follows for `term`, chosen as for companies
-- (directory_company_search_plan): as typed; else with corrections for the words that
-- match no logo on their own; else with corrections for every word.
CREATE OR REPLACE FUNCTION directory_logo_search_plan(term text) RETURNS directory_search_plan
  LANGUAGE plpgsql STABLE AS $$
DECLARE
  plan directory_search_plan := directory_search_plan(term, '{}');
  typed text[] := plan.words;
  unknown text[];
BEGIN
  IF typed IS NULL OR directory_logo_found(plan, NULL) THEN
    RETURN plan;
  END IF;
  -- The words that match nothing on their own: the likely typos.
  unknown := ARRAY(
    SELECT w.word FROM unnest(typed) WITH ORDINALITY AS w(word, i)
    WHERE NOT directory_logo_found(plan, w.i::integer));
  IF cardinality(unknown) > 0 THEN
    plan := directory_search_plan(term, unknown);
    IF cardinality(unknown) = cardinality(typed) OR directory_logo_found(plan, NULL) THEN
      RETURN plan;
    END IF;
  END IF;
  RETURN directory_search_plan(term, typed);
END $$;
