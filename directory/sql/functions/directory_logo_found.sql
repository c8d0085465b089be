-- Whether any logo matches `plan`, through the trigram index only, as
-- directory_company_found.
DROP FUNCTION IF EXISTS directory_logo_found(directory_search_plan, integer);
CREATE OR REPLACE FUNCTION directory_logo_found(plan directory_search_plan)
  RETURNS boolean
  LANGUAGE plpgsql STABLE
  SET enable_seqscan = off SET enable_indexscan = off AS $$
DECLARE
  lead integer := directory_search_lead(plan, 1);
  second integer := coalesce(directory_search_lead(plan, 2), lead);
BEGIN
  RETURN EXISTS (
    SELECT 1 FROM directory_logo l
    WHERE l.search_doc LIKE ANY (plan.match[lead:lead])
      AND l.search_doc LIKE ANY (plan.match[second:second])
      AND directory_search_matches(l.search_doc, plan));
END $$;
