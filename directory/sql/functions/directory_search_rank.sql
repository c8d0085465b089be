-- Where a document that matches `plan` ranks, lower first (docs/search.md): 0 when one
-- of its names is exactly the term; otherwise 1 plus its first six words' scores
-- (directory_search_score), which order documents by how many words matched only once
-- corrected, then how many of those two edits away, then how many only inside a word,
-- then how many as a word start rather than whole. Words past the sixth must match but
-- do not rank. Nested, so that a statement planned for a plan inlines only its words'.
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
