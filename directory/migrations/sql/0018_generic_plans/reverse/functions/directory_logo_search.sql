-- One window of the logos that match `plan` by their title or their company's name, in
-- search order (docs/search.md: current logos first, then as companies rank:
-- directory_search_rank, the shorter search document, the title, the id), and how many
-- match in all. Read as directory_company_search reads companies; a one-word term's rank
-- classes come twice, for the current logos, then for the others.
CREATE OR REPLACE FUNCTION directory_logo_search(
  plan directory_search_plan, skip integer, take integer, OUT total bigint, OUT ids uuid[])
  LANGUAGE plpgsql STABLE AS $$
DECLARE
  -- Up to this many matches, ranking them all costs less than reading them by class.
  RANK_ALL CONSTANT integer := 2000;
  words integer := array_length(plan.match, 1);
  lead integer := directory_search_lead(plan, 1);
  second integer := directory_search_lead(plan, 2);
  matched uuid[];  -- a term of several words: every match
  matches record;  -- directory_logo_lengths of every match
  found record;    -- ... of the class's pattern set
  set_lengths integer[];
  set_counts bigint[];
  before_lengths integer[];
  before_counts bigint[];
  class_lengths integer[];
  class_counts bigint[];
  of_current boolean;  -- the pass: the current logos, then the others
  done bigint := 0;    -- rows of the classes before this one
  shortest integer;    -- the lengths that hold the window's rows of this class
  longest integer;
  skipped bigint;      -- rows of this class in that range that come before the window
BEGIN
  ids := '{}';
  total := 0;
  IF words IS NULL THEN
    RETURN;
  END IF;

  IF words > 1 THEN
    -- Such terms match few logos: all of them, then the total and the window in one
    -- pass, found as directory_company_search finds companies for such terms.
    IF num_nonnulls(VARIADIC plan.match[lead:lead] || plan.match[second:second]) > 2 THEN
      matched := ARRAY(
        SELECT l.id FROM directory_logo l
        WHERE l.search_doc ~ directory_search_regex(plan.match[lead:lead])
          AND l.search_doc ~ directory_search_regex(plan.match[second:second])
          AND directory_search_matches(l.search_doc, plan));
    ELSE
      matched := ARRAY(
        SELECT l.id FROM directory_logo l
        WHERE l.search_doc LIKE ANY (plan.match[lead:lead])
          AND l.search_doc LIKE ANY (plan.match[second:second])
          AND directory_search_matches(l.search_doc, plan));
    END IF;
    SELECT coalesce(array_agg(r.id ORDER BY r.position)
                      FILTER (WHERE r.position > skip AND r.position <= skip + take), '{}'),
           count(*)
    INTO ids, total
    FROM (SELECT l.id,
                 row_number() OVER (ORDER BY l.is_current DESC,
                                             directory_search_rank(l.search_doc, plan),
                                             length(l.search_doc), l.title_fold, l.id)
                   AS position
          FROM directory_logo l WHERE l.id = ANY (matched)) r;
    RETURN;
  END IF;

  SELECT * INTO matches FROM directory_logo_lengths(plan.match, NULL);
  total := (SELECT coalesce(sum(n), 0) FROM unnest(matches.counts) AS n);
  IF total <= skip THEN
    RETURN;
  ELSIF total <= RANK_ALL THEN
    ids := ARRAY(
      SELECT l.id FROM directory_logo l
      WHERE l.search_doc LIKE ANY (plan.match)
      ORDER BY l.is_current DESC, directory_search_rank(l.search_doc, plan),
               length(l.search_doc), l.title_fold, l.id
      OFFSET skip LIMIT take);
    RETURN;
  END IF;
  FOREACH of_current IN ARRAY ARRAY[true, false] LOOP
    before_lengths := '{}';
    before_counts := '{}';
    FOR class IN 1..6 LOOP
      EXIT WHEN done >= least(total, skip + take);
      IF class = 6 OR class = 5 AND num_nonnulls(VARIADIC plan.far) = 0
         OR class = 4 AND num_nonnulls(VARIADIC plan.near || plan.far) = 0 THEN
        found := matches;
      ELSIF class = 1 THEN
        -- Exact names hold the word whole: one pass counts both sets.
        SELECT * INTO found FROM directory_logo_lengths(plan.whole, plan.exact);
      ELSIF class > 2 THEN
        SELECT * INTO found
        FROM directory_logo_lengths(directory_search_class_patterns(plan, class), NULL);
      END IF;
      set_lengths := found.lengths;
      set_counts := CASE WHEN of_current AND class = 1 THEN found.current_subset_counts
                         WHEN of_current THEN found.current_counts
                         WHEN class = 1 THEN found.subset_counts
                         ELSE found.counts END;
      IF NOT of_current THEN
        SELECT h.class_lengths, h.class_counts INTO set_lengths, set_counts
        FROM directory_search_histogram(
          found.lengths, set_counts, found.lengths,
          CASE class WHEN 1 THEN found.current_subset_counts ELSE found.current_counts END) h;
      END IF;
      SELECT h.class_lengths, h.class_counts INTO class_lengths, class_counts
      FROM directory_search_histogram(set_lengths, set_counts, before_lengths, before_counts) h;
      before_lengths := set_lengths;
      before_counts := set_counts;
      SELECT w.shortest, w.longest, w.skipped INTO shortest, longest, skipped
      FROM directory_search_window(class_lengths, class_counts, done, skip, take) w;
      IF shortest IS NOT NULL THEN
        ids := ids || ARRAY(
          SELECT l.id FROM directory_logo l
          WHERE l.search_doc LIKE ANY (directory_search_class_patterns(plan, class))
            AND length(l.search_doc) BETWEEN shortest AND longest
            AND l.is_current = of_current
            AND directory_search_rank(l.search_doc, plan) = directory_search_class_rank(class)
          ORDER BY length(l.search_doc), l.title_fold, l.id
          OFFSET skipped LIMIT take - cardinality(ids));
      END IF;
      done := done + (SELECT coalesce(sum(n), 0) FROM unnest(class_counts) AS n);
    END LOOP;
  END LOOP;
END $$;
