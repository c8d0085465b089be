-- Whether any company within the filters (NULL: none) matches `plan`.
CREATE OR REPLACE FUNCTION directory_company_found(
  plan directory_search_plan, sectors bigint[], province_folded text) RETURNS boolean
  LANGUAGE plpgsql STABLE AS $$
DECLARE
  lead integer := directory_search_lead(plan, 1);
BEGIN
  RETURN EXISTS (
    SELECT 1 FROM directory_company c
    WHERE c.search_doc LIKE ANY (plan.match[lead:lead])
      AND directory_search_matches(c.search_doc, plan)
      AND (sectors IS NULL OR c.sector_id = ANY (sectors))
      AND (province_folded IS NULL OR c.province_fold = province_folded));
END $$;
