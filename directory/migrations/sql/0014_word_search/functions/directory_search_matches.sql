-- Whether a search document matches `plan`: every required word matches its row.
CREATE OR REPLACE FUNCTION directory_search_matches(doc text, plan directory_search_plan)
  RETURNS boolean
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN NOT EXISTS (SELECT 1 FROM generate_subscripts(plan.match, 1) AS i
                     WHERE doc LIKE ANY (plan.match[i:i]) IS NOT TRUE);
