-- The plan of typo correction step `step` (2 or 3) for `term`, once `plan`, the term as
-- typed, found nothing among the companies (or, with `logos`, the logos), or NULL when
-- that step has nothing to add (docs/search.md). A word that a name or a title has held
-- matches as typed: it is never corrected, and that spares a costly lookup for the
-- common words of a term. Step 2 corrects the other words when they match nothing on
-- their own, the likely typos, or reads them as two words typed together. Step 3, when
-- step 2 found nothing either (or had nothing to correct), also corrects the words no
-- text of the catalogue holds, which a typo can leave inside another word ("rieta" is
-- in "Arrieta"), and reads every word as two typed together ("costacalida" for "Costa
-- Cálida", though another name holds "Costacalida").
--
-- Generic plans, for its statements and the lookups they call (directory_search_plan's
-- corrections, directory_company_found): their plans do not depend on the words, and
-- planning them again for every term cost more than running them.
CREATE OR REPLACE FUNCTION directory_search_corrected_plan(
  plan directory_search_plan, term text, step integer, logos boolean)
  RETURNS directory_search_plan
  LANGUAGE plpgsql STABLE
  SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  typed text[] := plan.words;
  -- Words no name or title has held (directory_search_word.named): the others match as
  -- typed.
  unnamed text[] := ARRAY(
    SELECT w.word FROM unnest(typed) AS w(word)
    WHERE NOT EXISTS (SELECT 1 FROM directory_search_word s WHERE s.word = w.word AND s.named));
  unknown text[] := ARRAY(
    SELECT w.word FROM unnest(typed) WITH ORDINALITY AS w(word, i)
    WHERE w.word = ANY (unnamed)
      AND NOT CASE WHEN logos THEN directory_logo_found(plan, w.i::integer)
                   ELSE directory_company_found(plan, NULL, NULL, w.i::integer) END);
BEGIN
  IF step = 2 THEN
    RETURN CASE WHEN cardinality(unknown) > 0
                THEN directory_search_plan(term, unknown, unknown) END;
  END IF;
  RETURN CASE WHEN cardinality(unknown) < cardinality(typed)
              THEN directory_search_plan(
                     term,
                     ARRAY(SELECT w.word FROM unnest(unnamed) AS w(word)
                           WHERE NOT EXISTS (SELECT 1 FROM directory_search_word s
                                             WHERE s.word = w.word)),
                     typed) END;
END $$;
