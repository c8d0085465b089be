-- Adds the corrections of the words `fresh`, just added to the lexicon, to the stored
-- lists (directory_search_near): a new word's list is what directory_search_corrections
-- returns, and it joins the lists of the old words whose corrections now return it: those
-- its lookups find (directory_search_pair), and those whose lookups find it through a
-- deletion the variants do not store (two letters out of a key of eight or more:
-- directory_search_reach). A bulk that outnumbers the old words computes every list whole
-- (a first load measures no pair twice), in parallel workers, planned for it; a single
-- write's plans last the connection.
CREATE OR REPLACE FUNCTION directory_search_near_add(fresh text[]) RETURNS void
  LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  listed text[] := fresh;  -- the words whose lists are computed whole
  whole boolean := false;
  rows_word text[]; rows_near text[]; rows_distance integer[];
BEGIN
  IF cardinality(fresh) > 100 THEN
    SET LOCAL plan_cache_mode = force_custom_plan;
    -- The planner costs a word's corrections as a few operators (so that workers would
    -- only read the lexicon for the leader); they cost tens of microseconds.
    SET LOCAL parallel_setup_cost = 0; SET LOCAL parallel_tuple_cost = 0;
    SET LOCAL min_parallel_table_scan_size = 0;
    IF (SELECT count(*) FROM directory_search_word) <= 2 * cardinality(fresh) THEN
      whole := true;
      listed := ARRAY(SELECT s.word FROM directory_search_word s);
    END IF;
  END IF;
  -- EXECUTE: PL/pgSQL runs its own SELECT INTO without parallel workers.
  EXECUTE 'SELECT array_agg(f.word), array_agg(c.word), array_agg(c.distance)
           FROM directory_search_word f,
                LATERAL directory_search_corrections(f.word COLLATE "default") c
           WHERE f.word = ANY ($1) AND length(f.word) >= 4 AND c.distance IS NOT NULL'
  INTO rows_word, rows_near, rows_distance USING listed;
  INSERT INTO directory_search_near (word, near, distance)
  SELECT * FROM unnest(rows_word, rows_near, rows_distance) AS r(word, near, distance)
  ORDER BY r.word, r.near ON CONFLICT DO NOTHING;
  IF NOT whole THEN
    WITH new_words AS (SELECT s.word, s.key FROM directory_search_word s WHERE s.word = ANY (fresh)),
    pairs AS (  -- the old words each new word's lookups find, or whose lookups may find it
      SELECT c.word AS new_word, c.key AS new_key, s.word AS other, s.key AS other_key
      FROM (SELECT DISTINCT f.word, f.key, v.word AS other
            FROM new_words f,
                 unnest(directory_search_lookups(f.word COLLATE "default", f.key)) AS l(variant),
                 directory_search_variant v
            WHERE v.variant = l.variant
            UNION ALL  -- a pair found both ways is written once (ON CONFLICT)
            SELECT DISTINCT f.word, f.key, e.word
            FROM new_words f,
                 unnest(directory_search_stored(f.word COLLATE "default", f.key)) AS n(variant),
                 directory_search_reach e
            WHERE length(f.key) >= 8 AND e.variant = n.variant) c
           JOIN directory_search_word s ON s.word = c.other
      WHERE s.word NOT IN (SELECT unnest(fresh))  -- a hashed set
        AND length(s.word) >= 4 AND abs(length(s.word) - length(c.word)) <= 3
    )
    INSERT INTO directory_search_near (word, near, distance)
    SELECT pairs.other, pairs.new_word, p.distance
    FROM pairs,
         directory_search_pair(pairs.new_word, pairs.new_key,
                               pairs.other COLLATE "default", pairs.other_key) p
    -- Two words one edit apart, or two by spelling, always find each other; keys two edits
    -- apart may not, and only then are the old word's lookups built (CASE: not for all).
    WHERE CASE WHEN p.distance IS NOT NULL
            THEN p.distance < 2 OR p.spelled <= 2
                 OR directory_search_lookups(pairs.other COLLATE "default", pairs.other_key)
                    && directory_search_stored(pairs.new_word COLLATE "default", pairs.new_key)
            ELSE false END
    ORDER BY pairs.other, pairs.new_word
    ON CONFLICT DO NOTHING;
  END IF;
  INSERT INTO directory_search_reach (variant, word)
  SELECT DISTINCT v.variant, s.word
  FROM directory_search_word s, unnest(directory_search_deletions(s.key, 2)) AS v(variant)
  WHERE s.word = ANY (fresh) AND length(s.key) >= 8
  ORDER BY v.variant, s.word;
END $$;
