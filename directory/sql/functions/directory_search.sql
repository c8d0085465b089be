-- One window of the rows of `kind` ('company' or 'logo', directory_search_source) that
-- match `term` within the filters (NULL: none; companies only), in search order
-- (directory_search_ranked), and how many match: the page functions' search.
-- A term of several words matches few rows: found, ranked and the window kept
-- (directory_search_found). A one-word term can match a fifth of the catalogue ("ria"),
-- so without filters its matches are not read: their counts by rank class, current or
-- not and document length come from directory_search_gram for a word of three letters as
-- typed (not "cal del", whose exact name is another) and from the postings for one of
-- four or more, however few (not on the second reading: words read as two have no
-- postings). Then in each class up to the window, current rows first, only the lengths
-- that hold it are read and ranked, named by the postings or found by the trigram and
-- length indexes. A legal form typed at the end ("ria s.l.") puts a class's names ending
-- with it first, which the counts do not tell apart: its shortest rows are read, 8 then
-- 64 times the window's, until they hold enough (a fifth of the names end with "S.L.").
-- Any other one-word term's matches are read once, counted and ranked.
CREATE OR REPLACE FUNCTION directory_search(
  kind text, term text, sectors bigint[], province_folded text, skip integer,
  take integer, OUT total bigint, OUT ids uuid[])
  LANGUAGE plpgsql STABLE
  SET plan_cache_mode = auto AS $$  -- a class read's plan, set below, ends with the function
DECLARE
  plan directory_search_plan;
  split boolean;
  classes record;      -- a one-word term's matches by class, length and current or not
  of_current boolean;  -- the pass: the current rows, then the others
  done bigint := 0;    -- rows of the classes before this one
  shortest integer;    -- the lengths that hold the window's rows of this class
  longest integer;
  skipped bigint;      -- rows of this class in that range that come before the window
  in_class bigint;     -- rows of this class
  widest integer;      -- the class's longest rows
  reach integer;       -- with a legal form: the rows to read, per row of the window left
  found uuid[];        -- the class's rows of the window
  named uuid[];        -- the class's rows in that range, by the postings
BEGIN
  total := 0;
  ids := '{}';
  -- Words read as two typed together only when the term finds nothing otherwise.
  FOREACH split IN ARRAY ARRAY[false, true] LOOP
    plan := directory_search_plan(term, split);
    IF array_length(plan.match, 1) > 1 THEN
      SELECT * INTO total, ids
      FROM directory_search_found(kind, plan, sectors, province_folded, skip, take);
    ELSIF sectors IS NULL AND province_folded IS NULL
          AND (btrim(plan.exact[1], '%| ') = plan.words[1] AND length(plan.words[1]) = 3
               AND num_nonnulls(VARIADIC plan.match) = 1
               OR length(plan.words[1]) >= 4 AND NOT split) THEN
      IF length(plan.words[1]) = 3 THEN
        SELECT NULL::uuid[] AS exact, NULL::text[] AS words, NULL::integer[] AS word_ranks, *
        INTO classes FROM directory_search_gram_classes(kind, plan.words[1]);
      ELSE
        SELECT * INTO classes FROM directory_search_posting_classes(kind, plan);
      END IF;
      total := (SELECT coalesce(sum(n), 0) FROM unnest(classes.counts) AS n);
      FOREACH of_current IN ARRAY ARRAY[true, false] LOOP
        FOR class IN 1..6 LOOP
          EXIT WHEN done >= least(total, skip + take);
          reach := 8;
          LOOP
            -- The class's rows by length (`kept`: those holding part of the window); the
            -- patterns may read other classes' rows too, which the rank leaves out.
            SELECT min(w.length) FILTER (WHERE w.kept), max(w.length) FILTER (WHERE w.kept),
                   greatest(skip - min(w.before) FILTER (WHERE w.kept), 0), sum(w.count),
                   max(w.length)
            INTO shortest, longest, skipped, in_class, widest
            FROM (SELECT h.length, h.count, h.before,
                         h.before + h.count > skip AND h.before < skip + take
                         OR plan.legal IS NOT NULL AND h.after > skip
                            AND h.before - done < reach * (skip + take - done) AS kept
                  FROM (SELECT h.length, h.count,
                               done + sum(h.count) OVER (ORDER BY h.length) - h.count AS before,
                               done + sum(h.count) OVER () AS after
                        FROM unnest(classes.ranks, classes.currents, classes.lengths,
                                    classes.counts) AS h(rank, is_current, length, count)
                        WHERE h.rank = directory_search_class_rank(class)
                          AND h.is_current = of_current) h) w;
            named := CASE WHEN shortest IS NULL OR classes.words IS NULL THEN NULL
                          WHEN class = 1 THEN classes.exact ELSE ARRAY(
              SELECT p.id FROM unnest(classes.words, classes.word_ranks) AS w(word, rank)
              JOIN directory_search_posting p ON p.kind = directory_search.kind AND p.word = w.word
              WHERE w.rank = directory_search_class_rank(class)
                AND p.length BETWEEN shortest AND longest AND p.is_current = of_current) END;
            -- Up to 300 rows to read (named, or matching the class's pattern) cost less under
            -- a plan made once than planning for the term (0.7-1.1 ms: the patterns' estimate);
            -- more, under one made for the term (`auto` came to prefer the other: ADO 26 -> 40).
            PERFORM set_config('plan_cache_mode', CASE WHEN coalesce(cardinality(named), (
              SELECT sum(h.count) FROM unnest(classes.ranks, classes.counts) AS h(rank, count)
              WHERE h.rank <= directory_search_class_rank(class))) <= 300
              THEN 'force_generic_plan' ELSE 'force_custom_plan' END, true);
            found := CASE WHEN shortest IS NOT NULL THEN (directory_search_ranked(
              kind, plan, NULL, NULL, named,
              CASE WHEN classes.words IS NULL THEN CASE class WHEN 1 THEN plan.exact
                   WHEN 2 THEN plan.whole WHEN 3 THEN plan.start ELSE plan.inside END END,
              NULL,
              -- The exact names, few, are read whole, to be ordered as typed first.
              CASE WHEN class > 1 THEN shortest END, longest, of_current, class,
              CASE WHEN class > 1 THEN skipped ELSE greatest(skip - done, 0) END,
              take - cardinality(ids))).ids ELSE '{}' END;
            PERFORM set_config('plan_cache_mode', 'auto', true);
            -- Enough once the window's last row ends with the form: the unread such are longer.
            EXIT WHEN plan.legal IS NULL OR class = 1 OR shortest IS NULL OR longest = widest
                   OR cardinality(found) = take - cardinality(ids)
                      AND EXISTS (SELECT FROM directory_search_source(kind, NULL, NULL) r
                                  WHERE r.id = found[cardinality(found)] AND r.tie ~ plan.legal);
            reach := reach * 8;
          END LOOP;
          ids := ids || found;
          done := done + coalesce(in_class, 0);
        END LOOP;
      END LOOP;
    ELSIF array_length(plan.match, 1) = 1 THEN
      SELECT * INTO total, ids
      FROM directory_search_ranked(kind, plan, sectors, province_folded, NULL, plan.loose,
                                   plan.near_words || plan.far_words, NULL, NULL, NULL, NULL,
                                   skip, take);
    END IF;
    EXIT WHEN total > 0 OR plan.words IS NULL;
  END LOOP;
END $$;
