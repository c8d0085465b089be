-- Whether any company matches `plan` within the filters (NULL: none). Only the trigram
-- index can answer that quickly: when matches are expected to be many, the planner would
-- rather scan the table for the first one, which reads all of it when there is none.
DROP FUNCTION IF EXISTS directory_company_found(directory_search_plan, bigint[], text, integer);
CREATE OR REPLACE FUNCTION directory_company_found(
  plan directory_search_plan, sectors bigint[], province_folded text)
  RETURNS boolean
  LANGUAGE plpgsql STABLE
  SET enable_seqscan = off SET enable_indexscan = off AS $$
DECLARE
  lead integer := directory_search_lead(plan, 1);
  second integer := coalesce(directory_search_lead(plan, 2), lead);
BEGIN
  RETURN EXISTS (
    SELECT 1 FROM directory_company c
    WHERE c.search_doc LIKE ANY (plan.match[lead:lead])
      AND c.search_doc LIKE ANY (plan.match[second:second])
      AND directory_search_matches(c.search_doc, plan)
      AND (sectors IS NULL OR c.sector_id = ANY (sectors))
      AND (province_folded IS NULL OR c.province_fold = province_folded));
END $$;
