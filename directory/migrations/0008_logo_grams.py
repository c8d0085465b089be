"""Logo search served like company search (migration 0005): precomputed groups for
three-character terms, and one PL/pgSQL function for every page.

* directory_logo_gram: for every three-character term of letters and digits (as folded),
  every logo whose search_text (title and company name) contains it, grouped by the
  leading keys of the logo search order: current logos first, then rank tier and
  similarity of the title. A page of such a term reads the few best groups instead of
  ranking thousands of matches (a third of logo searches, and the broadest ones).
* directory_logo_gram_total: how many logos contain each gram, for the exact total, and
  for picking a longer term's rarest grams to look up in the trigram index.

Statement-level triggers keep both exact; a company's rename reaches them through the
logo rows it rewrites (migration 0002). Like 0005's, a statement changes the rows it
touches in key order. directory_logo_page (directory.search) reads them.
"""

from django.db import migrations

TABLES = r"""
CREATE TABLE directory_logo_gram (
  gram text NOT NULL,
  lead smallint NOT NULL,  -- 0 for a current logo, else 1: current logos come first
  tier smallint NOT NULL,
  sim real NOT NULL,
  size integer NOT NULL,   -- cardinality(ids), read without detoasting ids
  ids uuid[] NOT NULL,     -- in no particular order
  PRIMARY KEY (gram, lead, tier, sim) INCLUDE (size)
);
INSERT INTO directory_logo_gram (gram, lead, tier, sim, size, ids)
  SELECT e.gram, CASE WHEN l.is_current THEN 0 ELSE 1 END, e.tier, e.sim, count(*),
         array_agg(l.id)
  FROM directory_logo l, directory_gram_entries(l.search_text, l.title_fold) e
  GROUP BY 1, 2, 3, 4;

CREATE TABLE directory_logo_gram_total (
  gram text PRIMARY KEY,
  size integer NOT NULL
);
INSERT INTO directory_logo_gram_total (gram, size)
  SELECT gram, sum(size) FROM directory_logo_gram GROUP BY gram;

-- One changed logo row: +1 for its new values, -1 for its old ones.
CREATE TYPE directory_logo_change AS (
  sign integer, id uuid, search_text text, title_fold text, is_current boolean
);

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

CREATE FUNCTION directory_logo_grams_truncate() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE directory_logo_gram, directory_logo_gram_total;
  RETURN NULL;
END $$;

CREATE TRIGGER directory_logo_grams_insert AFTER INSERT ON directory_logo
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION directory_logo_grams_sync();
CREATE TRIGGER directory_logo_grams_update AFTER UPDATE ON directory_logo
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION directory_logo_grams_sync();
CREATE TRIGGER directory_logo_grams_delete AFTER DELETE ON directory_logo
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION directory_logo_grams_sync();
CREATE TRIGGER directory_logo_grams_truncate AFTER TRUNCATE ON directory_logo
  FOR EACH STATEMENT EXECUTE FUNCTION directory_logo_grams_truncate();
"""

TABLES_REVERSE = """
DROP TRIGGER directory_logo_grams_truncate ON directory_logo;
DROP TRIGGER directory_logo_grams_delete ON directory_logo;
DROP TRIGGER directory_logo_grams_update ON directory_logo;
DROP TRIGGER directory_logo_grams_insert ON directory_logo;
DROP FUNCTION directory_logo_grams_truncate();
DROP FUNCTION directory_logo_grams_sync();
DROP TYPE directory_logo_change;
DROP TABLE directory_logo_gram_total;
DROP TABLE directory_logo_gram;
"""

PAGE = r"""
-- One page of logo_search and its exact total: the page as a JSON array of summary rows
-- (id, slug, title, preview, is_current, is_product, era_from, era_to, era_label,
-- company__slug, company__name, formats), which Python decodes far faster than as many
-- columns. `p_term` is the cleaned term, `p_pattern` the same term with LIKE's wildcards
-- escaped; both NULL to list without a term. directory_company_page (migration 0005)
-- explains the three ways to a page; here "current logos first" leads every order.
CREATE FUNCTION directory_logo_page(
  p_term text, p_pattern text, p_skip integer, p_take integer,
  OUT search_total bigint, OUT summaries text)
  LANGUAGE plpgsql STABLE AS $$
DECLARE
  v_total bigint := 0;
  v_page uuid[];
  v_term text := directory_fold(p_term);
  v_leads smallint[] := '{}';
  v_tiers smallint[] := '{}';
  v_sims real[] := '{}';
  v_seen bigint := 0;     -- rows in the groups walked so far
  v_skipped bigint := 0;  -- rows in the groups wholly before the page
  v_like text;
  v_rare1 text;
  v_rare2 text;
  v_rare3 text;
  grp record;
BEGIN
  IF p_term IS NOT NULL AND v_term ~ '^[a-z0-9]{3}$' THEN
    SELECT coalesce(max(t.size), 0) INTO v_total
    FROM directory_logo_gram_total t WHERE t.gram = v_term;
    IF p_skip < v_total THEN
      FOR grp IN
        SELECT g.lead, g.tier, g.sim, g.size FROM directory_logo_gram g
        WHERE g.gram = v_term ORDER BY g.lead, g.tier, g.sim DESC
      LOOP
        IF v_seen + grp.size <= p_skip THEN
          v_skipped := v_seen + grp.size;
        ELSE
          v_leads := v_leads || grp.lead;
          v_tiers := v_tiers || grp.tier;
          v_sims := v_sims || grp.sim;
        END IF;
        v_seen := v_seen + grp.size;
        EXIT WHEN v_seen >= p_skip + p_take;
      END LOOP;
    END IF;
    v_page := ARRAY(
      SELECT l.id
      FROM unnest(v_leads, v_tiers, v_sims) AS w(lead, tier, sim)
      JOIN directory_logo_gram g
        ON g.gram = v_term AND g.lead = w.lead AND g.tier = w.tier AND g.sim = w.sim
      CROSS JOIN LATERAL unnest(g.ids) AS u(id)
      JOIN directory_logo l ON l.id = u.id
      ORDER BY g.lead, g.tier, g.sim DESC, l.title_fold, l.id
      OFFSET p_skip - v_skipped LIMIT p_take);

  ELSIF p_term IS NOT NULL THEN
    v_like := '%' || directory_fold(p_pattern) || '%';
    IF v_term ~ '^[a-z0-9]{0,5}$' THEN
      v_rare1 := v_like;
    ELSE
      SELECT min(r.pattern) FILTER (WHERE r.rank = 1), min(r.pattern) FILTER (WHERE r.rank = 2),
             min(r.pattern) FILTER (WHERE r.rank = 3)
      INTO v_rare1, v_rare2, v_rare3
      FROM (
        SELECT '%' || g.gram || '%' AS pattern,
               row_number() OVER (ORDER BY g.in_word, g.size, g.gram) AS rank
        FROM (
          SELECT w.gram, w.size,
                 row_number() OVER (PARTITION BY w.word ORDER BY w.size, w.gram) AS in_word
          FROM (
            SELECT w.word, w.gram, coalesce(
                     (SELECT t.size FROM directory_logo_gram_total t WHERE t.gram = w.gram),
                     0) AS size
            FROM (SELECT DISTINCT w.word, substr(w.part, i, 3) AS gram
                  FROM regexp_split_to_table(v_term, '[^a-z0-9]+') WITH ORDINALITY AS w(part, word),
                       generate_series(1, length(w.part) - 2) AS i) w
          ) w
        ) g
      ) r;
    END IF;
    v_rare1 := coalesce(v_rare1, v_like);
    WITH matches AS MATERIALIZED (
      SELECT s.id, s.title_fold AS name, s.title_trigrams AS trigrams,
             3 * (CASE WHEN s.is_current THEN 0 ELSE 1 END) + CASE
               WHEN strpos(s.search_text, chr(31) || v_term || chr(31)) > 0 THEN 0
               WHEN strpos(s.search_text, chr(31) || v_term) > 0 THEN 1
               ELSE 2 END AS tier
      FROM directory_logo s
      WHERE s.search_text LIKE v_rare1
        AND s.search_text LIKE coalesce(v_rare2, v_rare1)
        AND s.search_text LIKE coalesce(v_rare3, v_rare1)
        AND (s.search_text || '') LIKE v_like
    ), seed AS (
      SELECT scored.tier, scored.score FROM (
        SELECT fewest.tier, similarity(fewest.name, v_term) AS score
        FROM (SELECT m.tier, m.name FROM matches m ORDER BY m.tier, m.trigrams
              LIMIT greatest(100, p_skip + p_take)) fewest
      ) scored ORDER BY scored.tier, scored.score DESC LIMIT p_skip + p_take
    ), bar AS MATERIALIZED (
      SELECT max(seed.tier) AS tier,
             min(seed.score) FILTER (WHERE seed.tier = (SELECT max(x.tier) FROM seed x))
               AS score
      FROM seed HAVING count(*) >= p_skip + p_take
    ), page AS (
      SELECT m.id, row_number() OVER (
        ORDER BY m.tier, similarity(m.name, v_term) DESC, m.name, m.id) AS pos
      FROM matches m LEFT JOIN bar ON true
      WHERE bar.tier IS NULL OR m.tier < bar.tier OR (
        m.tier = bar.tier AND m.trigrams * bar.score
          <= coalesce(array_length(show_trgm(v_term), 1), 0) + 1e-6)
      ORDER BY pos OFFSET p_skip LIMIT p_take
    )
    SELECT (SELECT count(*) FROM matches), ARRAY(SELECT page.id FROM page ORDER BY page.pos)
    INTO v_total, v_page;

  ELSE
    SELECT count(*) INTO v_total FROM directory_logo;
    v_page := ARRAY(SELECT l.id FROM directory_logo l
                    ORDER BY l.is_current DESC, l.title_fold, l.id OFFSET p_skip LIMIT p_take);
  END IF;

  search_total := v_total;
  SELECT coalesce(json_agg(json_build_object(
           'id', l.id, 'slug', l.slug, 'title', l.title, 'preview', l.preview,
           'is_current', l.is_current, 'is_product', l.is_product, 'era_from', l.era_from,
           'era_to', l.era_to, 'era_label', l.era_label, 'company__slug', c.slug,
           'company__name', c.name,
           'formats', ARRAY(SELECT DISTINCT a.format FROM directory_asset a
                            WHERE a.logo_id = l.id))
           ORDER BY p.position), '[]')::text
  INTO summaries
  FROM unnest(v_page) WITH ORDINALITY AS p(id, position)
  JOIN directory_logo l ON l.id = p.id
  JOIN directory_company c ON c.id = l.company_id;
END $$;
"""

PAGE_REVERSE = "DROP FUNCTION directory_logo_page(text, text, integer, integer);"


class Migration(migrations.Migration):
    dependencies = [("directory", "0007_company_embeddings")]

    operations = [
        migrations.RunSQL(TABLES, TABLES_REVERSE),
        migrations.RunSQL(PAGE, PAGE_REVERSE),
    ]
