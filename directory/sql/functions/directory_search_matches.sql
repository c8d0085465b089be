-- Whether a search document matches `plan`: every required word its row. Six words written
-- out, so that the planner inlines it (later words: directory_search_matches_beyond). Each
-- comparison IS TRUE, so that the planner does not take it for a trigram index condition:
-- the caller looks up the words directory_search_lead picks, checks the others on those.
CREATE OR REPLACE FUNCTION directory_search_matches(doc text, plan directory_search_plan)
  RETURNS boolean
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN ((doc LIKE ANY (plan.match[1:1])) IS TRUE OR cardinality(plan.words) < 1)
     AND ((doc LIKE ANY (plan.match[2:2])) IS TRUE OR cardinality(plan.words) < 2)
     AND ((doc LIKE ANY (plan.match[3:3])) IS TRUE OR cardinality(plan.words) < 3)
     AND ((doc LIKE ANY (plan.match[4:4])) IS TRUE OR cardinality(plan.words) < 4)
     AND ((doc LIKE ANY (plan.match[5:5])) IS TRUE OR cardinality(plan.words) < 5)
     AND ((doc LIKE ANY (plan.match[6:6])) IS TRUE OR cardinality(plan.words) < 6)
     AND (cardinality(plan.words) <= 6 OR directory_search_matches_beyond(doc, plan));
