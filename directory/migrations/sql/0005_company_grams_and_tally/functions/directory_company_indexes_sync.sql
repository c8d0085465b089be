CREATE FUNCTION directory_company_indexes_sync() RETURNS trigger
  LANGUAGE plpgsql AS $$
DECLARE
  changes directory_company_change[];
  grp record;
  remaining integer;
BEGIN
  IF TG_OP = 'INSERT' THEN
    changes := ARRAY(SELECT ROW(1, n.id, n.search_text, n.name_fold, n.sector_id,
                                n.province_fold)::directory_company_change FROM new_rows n);
  ELSIF TG_OP = 'DELETE' THEN
    changes := ARRAY(SELECT ROW(-1, o.id, o.search_text, o.name_fold, o.sector_id,
                                o.province_fold)::directory_company_change FROM old_rows o);
  ELSE
    -- Only rows whose indexed values changed: most updates touch other columns.
    changes := ARRAY(
      SELECT ROW(-1, o.*)::directory_company_change FROM (
        SELECT id, search_text, name_fold, sector_id, province_fold FROM old_rows
        EXCEPT ALL
        SELECT id, search_text, name_fold, sector_id, province_fold FROM new_rows) o
      UNION ALL
      SELECT ROW(1, n.*)::directory_company_change FROM (
        SELECT id, search_text, name_fold, sector_id, province_fold FROM new_rows
        EXCEPT ALL
        SELECT id, search_text, name_fold, sector_id, province_fold FROM old_rows) n);
  END IF;
  IF cardinality(changes) = 0 THEN
    RETURN NULL;
  END IF;

  FOR grp IN
    SELECT e.gram, e.tier, e.sim,
           array_agg(c.id) FILTER (WHERE c.sign < 0) AS removed,
           array_agg(c.id) FILTER (WHERE c.sign > 0) AS added
    FROM unnest(changes) c, directory_gram_entries(c.search_text, c.name_fold) e
    GROUP BY e.gram, e.tier, e.sim
    ORDER BY e.gram, e.tier, e.sim
  LOOP
    INSERT INTO directory_company_gram AS g (gram, tier, sim, size, ids)
      VALUES (grp.gram, grp.tier, grp.sim, coalesce(cardinality(grp.added), 0),
              coalesce(grp.added, '{}'))
    ON CONFLICT (gram, tier, sim) DO UPDATE
      SET ids = ARRAY(SELECT unnest(g.ids) EXCEPT ALL SELECT unnest(grp.removed))
                || excluded.ids,
          size = g.size - coalesce(cardinality(grp.removed), 0) + excluded.size
    RETURNING size INTO remaining;
    IF remaining = 0 THEN
      DELETE FROM directory_company_gram
        WHERE gram = grp.gram AND tier = grp.tier AND sim = grp.sim;
    END IF;
  END LOOP;

  FOR grp IN
    SELECT e.gram, sum(c.sign)::integer AS delta
    FROM unnest(changes) c, directory_gram_entries(c.search_text, c.name_fold) e
    GROUP BY e.gram
    HAVING sum(c.sign) <> 0
    ORDER BY e.gram
  LOOP
    INSERT INTO directory_company_gram_total AS t (gram, size) VALUES (grp.gram, grp.delta)
    ON CONFLICT (gram) DO UPDATE SET size = t.size + excluded.size
    RETURNING size INTO remaining;
    IF remaining = 0 THEN
      DELETE FROM directory_company_gram_total WHERE gram = grp.gram;
    END IF;
  END LOOP;

  FOR grp IN
    SELECT c.sector_id, c.province_fold, sum(c.sign)::integer AS delta
    FROM unnest(changes) c
    GROUP BY c.sector_id, c.province_fold
    HAVING sum(c.sign) <> 0
    ORDER BY c.sector_id, c.province_fold
  LOOP
    INSERT INTO directory_company_tally AS t (sector_id, province_fold, size)
      VALUES (grp.sector_id, grp.province_fold, grp.delta)
    ON CONFLICT (sector_id, province_fold) DO UPDATE SET size = t.size + excluded.size
    RETURNING size INTO remaining;
    IF remaining = 0 THEN
      DELETE FROM directory_company_tally
        WHERE sector_id IS NOT DISTINCT FROM grp.sector_id
          AND province_fold IS NOT DISTINCT FROM grp.province_fold;
    END IF;
  END LOOP;
  RETURN NULL;
END $$;
