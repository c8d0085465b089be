-- The `related` list of a company search (directory/search/related.py): the companies of the
-- embeddings `keys`, the candidates nearest the term in meaning, nearest first, but not
-- those in `shown`, as a JSON array of the stored summaries, `take` at most.
-- Past the first `free` keys, a candidate stays only when its full-text document
-- (directory_company_fulltext: names, sector, "about") holds a word of `query` that
-- neither Spanish nor English counts as a stopword (the document is stemmed in both, so
-- "de" or "the" would match almost every company): the evidence rule. Those that stay
-- are ordered by reciprocal rank fusion (k = 60) of their order in `keys` and of their
-- full-text rank for every word of `query` (directory_fulltext_query). One statement, so
-- that the evidence and the rank read the documents once. PL/pgSQL, not SQL: a SQL
-- function's statement is planned again on every call, PL/pgSQL keeps its plan for the
-- connection: 1.75-2.1 ms of server CPU a call against 2.3-3.1 ms (40 related searches
-- of bench/semantic.py's catalogue of 100,000, called again and again).
DROP FUNCTION IF EXISTS directory_company_related(bigint[], text, uuid[], integer);
CREATE OR REPLACE FUNCTION directory_company_related(
  keys bigint[], query text, shown uuid[], take integer, free integer) RETURNS text
  LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN (
  WITH words AS (
    SELECT directory_fulltext_query(query) AS ranked,
           (SELECT directory_fulltext_query(string_agg(word, ' '))
            FROM regexp_split_to_table(directory_fold(query), '[^a-z0-9]+') AS word
            WHERE length(to_tsvector('spanish', word)) > 0
              AND length(to_tsvector('english', word)) > 0) AS evidence
  ), candidates AS (
    SELECT e.company_id, f.document,
           row_number() OVER (ORDER BY u.position) AS vector_rank
    FROM unnest(keys) WITH ORDINALITY AS u(key, position)
    JOIN directory_companyembedding e ON e.id = u.key
    LEFT JOIN directory_company_fulltext f ON f.company_id = e.company_id
    CROSS JOIN words w
    WHERE e.company_id <> ALL (shown)
      AND (u.position <= free OR f.document @@ w.evidence)
  ), lexical AS (
    SELECT c.company_id,
           row_number() OVER (ORDER BY ts_rank_cd(c.document, w.ranked) DESC, c.vector_rank)
             AS lexical_rank
    FROM candidates c CROSS JOIN words w
    WHERE c.document @@ w.ranked
  ), fused AS (
    SELECT c.company_id, c.vector_rank,
           1.0 / (60 + c.vector_rank) + coalesce(1.0 / (60 + l.lexical_rank), 0) AS score
    FROM candidates c LEFT JOIN lexical l ON l.company_id = c.company_id
    ORDER BY score DESC, c.vector_rank
    LIMIT take
  )
  SELECT '[' || coalesce(string_agg(t.summary, ',' ORDER BY f.score DESC, f.vector_rank), '')
         || ']'
  FROM fused f JOIN directory_company_summary t ON t.company_id = f.company_id);
END;
$$;
