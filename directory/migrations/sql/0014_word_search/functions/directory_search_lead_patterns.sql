-- The patterns of the word of `plan` that the trigram index narrows a search by best
-- (directory_search_lead), as one array: a condition on them lets a query outside the
-- page functions (the admin's, directory/search.py) use the index.
CREATE OR REPLACE FUNCTION directory_search_lead_patterns(plan directory_search_plan)
  RETURNS text[]
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN plan.match[directory_search_lead(plan, 1):directory_search_lead(plan, 1)];
