-- The plan for `term` once `plan`, the term as typed, found no company within the
-- filters (directory_company_search_plan): with typo corrections for the words that match
-- nothing on their own; when that finds nothing either (or every word matched
-- something), for the words that are not words of the catalogue, which a typo can leave
-- inside another word ("rieta" is in "Arrieta"). Words of the catalogue are not
-- corrected: every word of a term that found nothing would otherwise bring eight
-- alternatives, each a costly lookup.
CREATE OR REPLACE FUNCTION directory_company_corrected_plan(
  plan directory_search_plan, term text, sectors bigint[], province_folded text)
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
    WHERE NOT directory_company_found(plan, NULL, NULL, w.i::integer));
  IF cardinality(unknown) > 0 THEN
    plan := directory_search_plan(term, unknown, unknown);
    IF cardinality(unknown) = cardinality(typed)
       OR directory_company_found(plan, sectors, province_folded, NULL) THEN
      RETURN plan;
    END IF;
  END IF;
  unfamiliar := ARRAY(
    SELECT w.word FROM unnest(typed) AS w(word)
    WHERE NOT EXISTS (SELECT 1 FROM directory_search_word s WHERE s.word = w.word));
  RETURN directory_search_plan(term, unfamiliar, typed);
END $$;
