-- Whether a search document matches `plan`: every required word matches its row. The
-- first six words are written out, so that the check costs a few comparisons and the
-- planner inlines it into the query that calls it (a subquery here would stop that and
-- cost a function call per row); words past the sixth, of longer terms only, are
-- checked by directory_search_matches_beyond. Each comparison is wrapped in IS TRUE so
-- that, once inlined, the planner does not take it for a condition the trigram index
-- should answer: a word's patterns can be common, so the caller looks up the words
-- directory_search_lead picks and checks the others on the rows those find.
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
