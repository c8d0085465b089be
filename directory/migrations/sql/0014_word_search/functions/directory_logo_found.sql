-- Whether any logo matches `plan`, or, given `word`, that word of the plan on its own;
-- through the trigram index only, as directory_company_found.
CREATE OR REPLACE FUNCTION directory_logo_found(plan directory_search_plan, word integer)
  RETURNS boolean
  LANGUAGE plpgsql STABLE
  SET enable_seqscan = off SET enable_indexscan = off AS $$
DECLARE
  lead integer := directory_search_lead(plan, 1);
  second integer := coalesce(directory_search_lead(plan, 2), lead);
BEGIN
  IF word IS NOT NULL THEN
    RETURN EXISTS (SELECT 1 FROM directory_logo l
                   WHERE l.search_doc LIKE ANY (plan.match[word:word]));
  END IF;
  RETURN EXISTS (
    SELECT 1 FROM directory_logo l
    WHERE l.search_doc LIKE ANY (plan.match[lead:lead])
      AND l.search_doc LIKE ANY (plan.match[second:second])
      AND directory_search_matches(l.search_doc, plan));
END $$;
