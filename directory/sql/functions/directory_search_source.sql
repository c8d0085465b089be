-- The rows company and logo search read, by `kind`: id, search document, whether current
-- (every company is), the folded name or title breaking ties; companies within the filters.
-- The one place knowing both tables: inlined with `kind` known, a statement keeps one half
-- and its indexes. BEGIN ATOMIC: inlining reads a stored parse tree, not text to parse.
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
