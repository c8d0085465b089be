-- The `related` list of a company search (directory/related.py): the companies of the
-- embeddings `keys`, the candidates nearest the term in meaning, nearest first, but not
-- those in `shown`, ordered by reciprocal rank fusion (k = 60) of that order and of their
-- full-text rank for `query` (directory_fulltext_query over directory_company_fulltext:
-- names, sector, "about"), as a JSON array of the stored summaries, `take` at most.
CREATE OR REPLACE FUNCTION directory_company_related(
  keys bigint[], query text, shown uuid[], take integer) RETURNS text
  LANGUAGE sql STABLE
BEGIN ATOMIC
  WITH candidates AS (
    SELECT e.company_id, u.position AS vector_rank
    FROM unnest(keys) WITH ORDINALITY AS u(key, position)
    JOIN directory_companyembedding e ON e.id = u.key
    WHERE e.company_id <> ALL (shown)
  ), lexical AS (
    SELECT c.company_id,
           row_number() OVER (ORDER BY ts_rank_cd(f.document, q.query) DESC, c.vector_rank)
             AS lexical_rank
    FROM candidates c
    JOIN directory_company_fulltext f ON f.company_id = c.company_id
    CROSS JOIN directory_fulltext_query(query) AS q(query)
    WHERE f.document @@ q.query
  ), fused AS (
    SELECT c.company_id, c.vector_rank,
           1.0 / (60 + c.vector_rank) + coalesce(1.0 / (60 + l.lexical_rank), 0) AS score
    FROM candidates c LEFT JOIN lexical l ON l.company_id = c.company_id
    ORDER BY score DESC, c.vector_rank
    LIMIT take
  )
  SELECT '[' || coalesce(string_agg(t.summary, ',' ORDER BY f.score DESC, f.vector_rank), '')
         || ']'
  FROM fused f JOIN directory_company_summary t ON t.company_id = f.company_id;
END;
