-- One page of logo_search and its exact total: the page as a JSON array of summary rows
-- (id, slug, title, preview, is_current, is_product, era_from, era_to, era_label,
-- company__slug, company__name, formats), which Python decodes far faster than as many
-- columns. `p_term` is the cleaned term, `p_pattern` the same term with LIKE's wildcards
-- escaped; both NULL to list without a term. directory_company_page (migration 0005)
-- explains the three ways to a page; here "current logos first" leads every order.
CREATE OR REPLACE FUNCTION directory_logo_page(
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
  IF p_term IS NOT NULL AND v_term ~ '^[a-z0-9]{3,5}$' THEN
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
