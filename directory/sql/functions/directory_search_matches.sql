-- Whether a search document matches `plan`: every required word matches its row. The
-- first six words are written out, so that the check costs a few comparisons, not a
-- subquery; longer terms check the rest in one.
CREATE OR REPLACE FUNCTION directory_search_matches(doc text, plan directory_search_plan)
  RETURNS boolean
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN (doc LIKE ANY (plan.match[1:1]) OR cardinality(plan.words) < 1)
     AND (doc LIKE ANY (plan.match[2:2]) OR cardinality(plan.words) < 2)
     AND (doc LIKE ANY (plan.match[3:3]) OR cardinality(plan.words) < 3)
     AND (doc LIKE ANY (plan.match[4:4]) OR cardinality(plan.words) < 4)
     AND (doc LIKE ANY (plan.match[5:5]) OR cardinality(plan.words) < 5)
     AND (doc LIKE ANY (plan.match[6:6]) OR cardinality(plan.words) < 6)
     AND (cardinality(plan.words) <= 6
          OR NOT EXISTS (SELECT 1 FROM generate_subscripts(plan.match, 1) AS i
                         WHERE i > 6 AND doc LIKE ANY (plan.match[i:i]) IS NOT TRUE));
