-- Whether every required word of `plan` past the sixth (directory_search_matches) matches.
CREATE OR REPLACE FUNCTION directory_search_matches_beyond(doc text, plan directory_search_plan)
  RETURNS boolean
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN NOT EXISTS (SELECT 1 FROM generate_subscripts(plan.match, 1) AS i
                     WHERE i > 6 AND doc LIKE ANY (plan.match[i:i]) IS NOT TRUE);
