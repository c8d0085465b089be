-- Rebuilds these companies' summaries (the sources of directory.catalogue.shapes'
-- CompanySummarySerializer: tests/directory/catalogue/test_rows.py holds them equal); an
-- unchanged one is not written. Companies are locked in id order, so that two writers of
-- one company's logos take turns and the second counts what the first committed; logos
-- are counted in one grouped pass. Many ids get a plan of their own, which hashes
-- `= ANY (p_ids)` (a load drops the logos' company_id index).
CREATE OR REPLACE FUNCTION directory_company_summaries_refresh(p_ids uuid[]) RETURNS void
  LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
BEGIN
  IF cardinality(p_ids) = 0 THEN
    RETURN;
  END IF;
  IF cardinality(p_ids) > 100 THEN
    SET LOCAL plan_cache_mode = force_custom_plan;
  END IF;
  PERFORM 1 FROM directory_company c WHERE c.id = ANY (p_ids) ORDER BY c.id
    FOR NO KEY UPDATE;
  INSERT INTO directory_company_summary AS t (company_id, summary)
    SELECT c.id, json_build_object(
             'id', c.id, 'slug', c.slug, 'name', c.name, 'entity_type', c.entity_type,
             'is_verified', c.is_verified, 'province', c.province,
             'sector', CASE WHEN s.id IS NULL THEN NULL
                            ELSE json_build_object('slug', s.slug, 'name', s.name) END,
             'logo_count', coalesce(n.logos, 0),
             'current_logo', CASE WHEN l.id IS NULL THEN NULL
                                  ELSE json_build_object('id', l.id, 'slug', l.slug,
                                                         'title', l.title,
                                                         'preview', l.preview) END)::text
    FROM directory_company c
    LEFT JOIN directory_sector s ON s.id = c.sector_id
    LEFT JOIN directory_logo l ON l.id = c.current_logo_id
    LEFT JOIN (SELECT g.company_id, count(*) AS logos FROM directory_logo g
               WHERE g.company_id = ANY (p_ids) GROUP BY g.company_id) n
      ON n.company_id = c.id
    WHERE c.id = ANY (p_ids)
    ORDER BY c.id
  ON CONFLICT (company_id) DO UPDATE SET summary = excluded.summary
    WHERE t.summary IS DISTINCT FROM excluded.summary;
END $$;
