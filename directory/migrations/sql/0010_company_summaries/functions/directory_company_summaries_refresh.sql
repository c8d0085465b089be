CREATE FUNCTION directory_company_summaries_refresh(p_ids uuid[]) RETURNS void
  LANGUAGE plpgsql AS $$
BEGIN
  IF cardinality(p_ids) = 0 THEN
    RETURN;
  END IF;
  PERFORM 1 FROM directory_company c WHERE c.id = ANY (p_ids) ORDER BY c.id
    FOR NO KEY UPDATE;
  INSERT INTO directory_company_summary AS t (company_id, summary)
    SELECT c.id, json_build_object(
           'id', c.id, 'slug', c.slug, 'name', c.name, 'entity_type', c.entity_type,
           'is_verified', c.is_verified, 'province', c.province, 'sector__slug', s.slug,
           'sector__name', s.name, 'current_logo_id', c.current_logo_id,
           'current_logo__slug', l.slug, 'current_logo__title', l.title,
           'current_logo__preview', l.preview,
           'logo_count', (SELECT count(*) FROM directory_logo n WHERE n.company_id = c.id))::text
    FROM directory_company c
    LEFT JOIN directory_sector s ON s.id = c.sector_id
    LEFT JOIN directory_logo l ON l.id = c.current_logo_id
    WHERE c.id = ANY (p_ids)
    ORDER BY c.id
  ON CONFLICT (company_id) DO UPDATE SET summary = excluded.summary
    WHERE t.summary IS DISTINCT FROM excluded.summary;
END $$;
