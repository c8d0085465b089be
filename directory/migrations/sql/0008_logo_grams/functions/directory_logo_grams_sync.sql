CREATE FUNCTION directory_logo_grams_sync() RETURNS trigger
  LANGUAGE plpgsql AS $$
DECLARE
  changes directory_logo_change[];
  grp record;
  remaining integer;
BEGIN
  IF TG_OP = 'INSERT' THEN
    changes := ARRAY(SELECT ROW(1, n.id, n.search_text, n.title_fold, n.is_current)
                              ::directory_logo_change FROM new_rows n);
  ELSIF TG_OP = 'DELETE' THEN
    changes := ARRAY(SELECT ROW(-1, o.id, o.search_text, o.title_fold, o.is_current)
                              ::directory_logo_change FROM old_rows o);
  ELSE
    -- Only rows whose indexed values changed: most updates touch other columns.
    changes := ARRAY(
      SELECT ROW(-1, o.*)::directory_logo_change FROM (
        SELECT id, search_text, title_fold, is_current FROM old_rows
        EXCEPT ALL
        SELECT id, search_text, title_fold, is_current FROM new_rows) o
      UNION ALL
      SELECT ROW(1, n.*)::directory_logo_change FROM (
        SELECT id, search_text, title_fold, is_current FROM new_rows
        EXCEPT ALL
        SELECT id, search_text, title_fold, is_current FROM old_rows) n);
  END IF;
  IF cardinality(changes) = 0 THEN
    RETURN NULL;
  END IF;

  FOR grp IN
    SELECT e.gram, CASE WHEN c.is_current THEN 0 ELSE 1 END::smallint AS lead, e.tier, e.sim,
           array_agg(c.id) FILTER (WHERE c.sign < 0) AS removed,
           array_agg(c.id) FILTER (WHERE c.sign > 0) AS added
    FROM unnest(changes) c, directory_gram_entries(c.search_text, c.title_fold) e
    GROUP BY 1, 2, 3, 4
    ORDER BY 1, 2, 3, 4
  LOOP
    INSERT INTO directory_logo_gram AS g (gram, lead, tier, sim, size, ids)
      VALUES (grp.gram, grp.lead, grp.tier, grp.sim, coalesce(cardinality(grp.added), 0),
              coalesce(grp.added, '{}'))
    ON CONFLICT (gram, lead, tier, sim) DO UPDATE
      SET ids = ARRAY(SELECT unnest(g.ids) EXCEPT ALL SELECT unnest(grp.removed))
                || excluded.ids,
          size = g.size - coalesce(cardinality(grp.removed), 0) + excluded.size
    RETURNING size INTO remaining;
    IF remaining = 0 THEN
      DELETE FROM directory_logo_gram
        WHERE gram = grp.gram AND lead = grp.lead AND tier = grp.tier AND sim = grp.sim;
    END IF;
  END LOOP;

  FOR grp IN
    SELECT e.gram, sum(c.sign)::integer AS delta
    FROM unnest(changes) c, directory_gram_entries(c.search_text, c.title_fold) e
    GROUP BY e.gram
    HAVING sum(c.sign) <> 0
    ORDER BY e.gram
  LOOP
    INSERT INTO directory_logo_gram_total AS t (gram, size) VALUES (grp.gram, grp.delta)
    ON CONFLICT (gram) DO UPDATE SET size = t.size + excluded.size
    RETURNING size INTO remaining;
    IF remaining = 0 THEN
      DELETE FROM directory_logo_gram_total WHERE gram = grp.gram;
    END IF;
  END LOOP;
  RETURN NULL;
END $$;
