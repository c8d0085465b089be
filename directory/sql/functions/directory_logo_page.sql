-- One page of logo search (directory_search) and its exact total, the page a JSON array
-- of summary rows. Without a term, every logo, current ones first, then by title. Without
-- JIT compilation, as directory_company_page.
CREATE OR REPLACE FUNCTION directory_logo_page(
  term text, skip integer, take integer, OUT search_total bigint, OUT summaries text)
  LANGUAGE plpgsql STABLE
  SET jit = off AS $$
DECLARE
  page uuid[];
BEGIN
  IF term IS NOT NULL THEN
    SELECT s.total, s.ids INTO search_total, page
    FROM directory_search('logo', term, NULL, NULL, skip, take) s;
  ELSE
    SELECT count(*) INTO search_total FROM directory_logo;
    page := ARRAY(SELECT l.id FROM directory_logo l
                  ORDER BY l.is_current DESC, l.title_fold, l.id OFFSET skip LIMIT take);
  END IF;
  SELECT coalesce(json_agg(json_build_object(
           'id', l.id, 'slug', l.slug, 'title', l.title, 'preview', l.preview,
           'is_current', l.is_current, 'is_product', l.is_product, 'era_from', l.era_from,
           'era_to', l.era_to, 'era_label', l.era_label, 'company__slug', c.slug,
           'company__name', c.name,
           'formats', ARRAY(SELECT DISTINCT a.format FROM directory_asset a
                            WHERE a.logo_id = l.id))
           ORDER BY p.position), '[]')::text
  INTO summaries
  FROM unnest(page) WITH ORDINALITY AS p(id, position)
  JOIN directory_logo l ON l.id = p.id
  JOIN directory_company c ON c.id = l.company_id;
END $$;
