-- The rows company and logo search read, by `kind` ('company' or 'logo'): the id, the
-- search document, whether the row is current (logos; every company counts as current)
-- and the name that breaks ties (the folded name or title); the companies within the
-- filters (NULL: none), which logo search does not have. The one place that knows which
-- table a kind reads: PostgreSQL inlines this query into the statements that call it,
-- and with `kind` known when a statement is planned it keeps only that table's half, so
-- the plan is the one written for that table alone (the trigram and length indexes of
-- directory_company or directory_logo). BEGIN ATOMIC: inlining reads its stored parse
-- tree, where a text body is parsed again in every statement planned.
CREATE OR REPLACE FUNCTION directory_search_source(
  kind text, sectors bigint[], province_folded text)
  RETURNS TABLE (id uuid, search_doc text, is_current boolean, tie text)
  LANGUAGE sql STABLE
BEGIN ATOMIC
  SELECT c.id, c.search_doc, true, c.name_fold FROM directory_company c
  WHERE kind = 'company'
    AND (sectors IS NULL OR c.sector_id = ANY (sectors))
    AND (province_folded IS NULL OR c.province_fold = province_folded)
  UNION ALL
  SELECT l.id, l.search_doc, l.is_current, l.title_fold FROM directory_logo l
  WHERE kind = 'logo';
END;
