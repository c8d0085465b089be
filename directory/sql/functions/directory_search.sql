-- The window `skip` to `skip + take`, in search order (directory_search_ranked), of the
-- rows of `kind` (directory_search_source) matching `term` within the filters (NULL: none),
-- and how many match. Several words match few rows (directory_search_found). One word can
-- match a fifth of the catalogue ("ria"): without filters, one of four letters or more is
-- read through its postings (not on the second reading: words read as two have none); one
-- of three as typed (not "cal del", whose exact name is another) is counted by class,
-- current or not and length, and each class up to the window read in the lengths that hold
-- it, with a legal form typed at the end ("ria s.l.") from its shortest rows, 8 then 64
-- times the window's, until they hold it (a fifth of names end "S.L.").
CREATE OR REPLACE FUNCTION directory_search(
  kind text, term text, sectors bigint[], province_folded text, skip integer,
  take integer, OUT total bigint, OUT ids uuid[])
  LANGUAGE plpgsql STABLE AS $$
DECLARE
  plan directory_search_plan;
  split boolean;
  classes record;      -- three letters: matches by class, length and current or not
  of_current boolean;  -- the pass: the current rows, then the others
  done bigint := 0;    -- rows of the classes before this one
  shortest integer;    -- the lengths that hold the window's rows of this class
  longest integer;
  skipped bigint;      -- rows of this class in that range that come before the window
  in_class bigint;     -- rows of this class
  widest integer;      -- the class's longest rows
  reach integer;       -- with a legal form: the rows to read, per row of the window left
  found uuid[];        -- the class's rows of the window
BEGIN
  total := 0;
  ids := '{}';
  -- Words read as two typed together only when the term finds nothing otherwise.
  FOREACH split IN ARRAY ARRAY[false, true] LOOP
    plan := directory_search_plan(term, split);
    IF array_length(plan.match, 1) > 1 THEN
      SELECT * INTO total, ids
      FROM directory_search_found(kind, plan, sectors, province_folded, skip, take, NULL);
    ELSIF sectors IS NOT NULL OR province_folded IS NOT NULL
          OR NOT (length(plan.words[1]) >= 4 AND NOT split
                  OR btrim(plan.exact[1], '%| ') = plan.words[1] AND length(plan.words[1]) = 3
                     AND num_nonnulls(VARIADIC plan.match) = 1) THEN
      SELECT * INTO total, ids
      FROM directory_search_ranked(kind, plan, sectors, province_folded, NULL, plan.loose,
                                   plan.near_words || plan.far_words, NULL, NULL, NULL, NULL,
                                   skip, take);
    ELSIF length(plan.words[1]) >= 4 THEN
      SELECT * INTO total, ids FROM directory_search_posting_classes(kind, plan, skip, take);
    ELSE
      SELECT * INTO classes FROM directory_search_gram_classes(kind, plan.words[1]);
      total := (SELECT coalesce(sum(n), 0) FROM unnest(classes.counts) AS n);
      FOREACH of_current IN ARRAY ARRAY[true, false] LOOP
        FOR class IN 1..4 LOOP
          EXIT WHEN done >= least(total, skip + take);
          reach := 8;
          LOOP
            -- `kept`: the lengths holding part of the window (the patterns read others' too).
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
            found := CASE WHEN shortest IS NOT NULL THEN (directory_search_ranked(
              kind, plan, NULL, NULL, NULL,
              CASE class WHEN 1 THEN plan.exact WHEN 2 THEN plan.whole WHEN 3 THEN plan.start
                   ELSE plan.inside END,
              NULL,
              -- The exact names, few, are read whole, to be ordered as typed first.
              CASE WHEN class > 1 THEN shortest END, longest, of_current, class,
              CASE WHEN class > 1 THEN skipped ELSE greatest(skip - done, 0) END,
              take - cardinality(ids))).ids ELSE '{}' END;
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
    END IF;
    EXIT WHEN total > 0 OR plan.words IS NULL;
  END LOOP;
END $$;
