-- Whether any logo matches `plan`.
CREATE OR REPLACE FUNCTION directory_logo_found(plan directory_search_plan) RETURNS boolean
  LANGUAGE plpgsql STABLE AS $$
DECLARE
  lead integer := directory_search_lead(plan, 1);
BEGIN
  RETURN EXISTS (
    SELECT 1 FROM directory_logo l
    WHERE l.search_doc LIKE ANY (plan.match[lead:lead])
      AND directory_search_matches(l.search_doc, plan));
END $$;
