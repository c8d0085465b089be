-- Where a document that matches `plan` ranks, lower first (docs/search.md): 0 when a name
-- is exactly the term, else 1 plus its first six words' scores (directory_search_score).
-- Later words must match but do not rank. Nested, so that a statement planned for a plan
-- inlines only its words' scores.
CREATE OR REPLACE FUNCTION directory_search_rank(doc text, plan directory_search_plan)
  RETURNS integer
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN CASE WHEN doc LIKE ANY (plan.exact) THEN 0
              ELSE 1 + directory_search_score(doc, plan, 1)
                   + CASE WHEN cardinality(plan.words) < 2 THEN 0
                          ELSE directory_search_score(doc, plan, 2)
                               + directory_search_score(doc, plan, 3)
                               + directory_search_score(doc, plan, 4)
                               + directory_search_score(doc, plan, 5)
                               + directory_search_score(doc, plan, 6) END
         END;
