-- One page of company_search and its exact total: the page as a JSON array of summary
-- rows (the keys serializers.company_summary reads), which Python decodes far faster
-- than as many columns. `p_term` is the cleaned term, `p_pattern` the same term with
-- LIKE's wildcards escaped; both NULL to list without a term. A PL/pgSQL function,
-- so that each statement below is planned once per connection, not once per search.
CREATE FUNCTION directory_company_page(
  p_term text, p_pattern text, p_sector text, p_province text, p_skip integer,
  p_take integer, OUT search_total bigint, OUT summaries text)
  LANGUAGE plpgsql STABLE AS $$
DECLARE
  v_total bigint := 0;
  v_page uuid[];
  v_term text := directory_fold(p_term);
  v_sectors bigint[];
  v_province text := directory_fold(p_province);
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
  IF p_sector IS NOT NULL THEN
    v_sectors := ARRAY(SELECT s.id FROM directory_sector s
                       WHERE s.slug = p_sector OR s.name_fold = directory_fold(p_sector));
  END IF;

  IF p_term IS NOT NULL AND p_sector IS NULL AND p_province IS NULL
     AND v_term ~ '^[a-z0-9]{3}$' THEN
    -- A three-character term: its groups in search order, reading those that overlap
    -- [skip, skip + take).
    SELECT coalesce(max(t.size), 0) INTO v_total
    FROM directory_company_gram_total t WHERE t.gram = v_term;
    IF p_skip < v_total THEN
      FOR grp IN
        SELECT g.tier, g.sim, g.size FROM directory_company_gram g
        WHERE g.gram = v_term ORDER BY g.tier, g.sim DESC
      LOOP
        IF v_seen + grp.size <= p_skip THEN
          v_skipped := v_seen + grp.size;
        ELSE
          v_tiers := v_tiers || grp.tier;
          v_sims := v_sims || grp.sim;
        END IF;
        v_seen := v_seen + grp.size;
        EXIT WHEN v_seen >= p_skip + p_take;
      END LOOP;
    END IF;
    v_page := ARRAY(
      SELECT c.id
      FROM unnest(v_tiers, v_sims) AS w(tier, sim)
      JOIN directory_company_gram g ON g.gram = v_term AND g.tier = w.tier AND g.sim = w.sim
      CROSS JOIN LATERAL unnest(g.ids) AS u(id)
      JOIN directory_company c ON c.id = u.id
      ORDER BY g.tier, g.sim DESC, c.name_fold, c.id
      OFFSET p_skip - v_skipped LIMIT p_take);

  ELSIF p_term IS NOT NULL THEN
    -- Any other term: directory.search explains the ranking and its pruning. The
    -- trigram index is asked for three of the term's runs of letters and digits, the
    -- rarest of each word first (runs of one word go together more often than runs of
    -- different words): every match contains them all, and they select far fewer
    -- rows than the padded one-letter words ("s.l.") among the term's own trigrams.
    -- `|| ''` keeps the whole pattern out of the index condition.
    v_like := '%' || directory_fold(p_pattern) || '%';
    IF v_term ~ '^[a-z0-9]{0,5}$' THEN
      v_rare1 := v_like;  -- its own trigrams are already its few runs: no lookup
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
                     (SELECT t.size FROM directory_company_gram_total t WHERE t.gram = w.gram),
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
      SELECT s.id, s.name_fold AS name, s.name_trigrams AS trigrams,
             CASE WHEN strpos(s.search_text, chr(31) || v_term || chr(31)) > 0 THEN 0
                  WHEN strpos(s.search_text, chr(31) || v_term) > 0 THEN 1
                  ELSE 2 END AS tier
      FROM directory_company s
      WHERE s.search_text LIKE v_rare1
        AND s.search_text LIKE coalesce(v_rare2, v_rare1)
        AND s.search_text LIKE coalesce(v_rare3, v_rare1)
        AND (s.search_text || '') LIKE v_like
        AND (p_sector IS NULL OR s.sector_id = ANY (v_sectors))
        AND (p_province IS NULL OR s.province_fold = v_province)
    ), seed AS (
      SELECT scored.tier, scored.score FROM (
        SELECT fewest.tier, similarity(fewest.name, v_term) AS score
        FROM (SELECT m.tier, m.name FROM matches m ORDER BY m.tier, m.trigrams
              LIMIT greatest(500, p_skip + p_take)) fewest
      ) scored ORDER BY scored.tier, scored.score DESC LIMIT p_skip + p_take
    ), bar AS MATERIALIZED (
      -- Materialized: under a generic plan's low row estimate it would be recomputed per match.
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
    -- No term: companies in name order, counted from the tally.
    SELECT coalesce(sum(t.size), 0) INTO v_total FROM directory_company_tally t
    WHERE (p_sector IS NULL OR t.sector_id = ANY (v_sectors))
      AND (p_province IS NULL OR t.province_fold = v_province);
    -- One statement per combination, so that each keeps a plan walking its index.
    IF p_skip >= v_total THEN
      v_page := '{}';
    ELSIF p_sector IS NULL AND p_province IS NULL THEN
      v_page := ARRAY(SELECT c.id FROM directory_company c
                      ORDER BY c.name_fold, c.id OFFSET p_skip LIMIT p_take);
    ELSIF p_sector IS NULL THEN
      v_page := ARRAY(SELECT c.id FROM directory_company c WHERE c.province_fold = v_province
                      ORDER BY c.name_fold, c.id OFFSET p_skip LIMIT p_take);
    ELSIF cardinality(v_sectors) > 1 THEN
      v_page := ARRAY(SELECT c.id FROM directory_company c
                      WHERE c.sector_id = ANY (v_sectors)
                        AND (p_province IS NULL OR c.province_fold = v_province)
                      ORDER BY c.name_fold, c.id OFFSET p_skip LIMIT p_take);
    ELSIF p_province IS NULL THEN
      v_page := ARRAY(SELECT c.id FROM directory_company c WHERE c.sector_id = v_sectors[1]
                      ORDER BY c.name_fold, c.id OFFSET p_skip LIMIT p_take);
    ELSE
      v_page := ARRAY(SELECT c.id FROM directory_company c
                      WHERE c.sector_id = v_sectors[1] AND c.province_fold = v_province
                      ORDER BY c.name_fold, c.id OFFSET p_skip LIMIT p_take);
    END IF;
  END IF;

  search_total := v_total;
  SELECT coalesce(json_agg(json_build_object(
           'id', c.id, 'slug', c.slug, 'name', c.name, 'entity_type', c.entity_type,
           'is_verified', c.is_verified, 'province', c.province, 'sector__slug', s.slug,
           'sector__name', s.name, 'current_logo_id', c.current_logo_id,
           'current_logo__slug', l.slug, 'current_logo__title', l.title,
           'current_logo__preview', l.preview,
           'logo_count', (SELECT count(*) FROM directory_logo n WHERE n.company_id = c.id))
           ORDER BY p.position), '[]')::text
  INTO summaries
  FROM unnest(v_page) WITH ORDINALITY AS p(id, position)
  JOIN directory_company c ON c.id = p.id
  LEFT JOIN directory_sector s ON s.id = c.sector_id
  LEFT JOIN directory_logo l ON l.id = c.current_logo_id;
END $$;
