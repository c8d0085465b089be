-- One window of the rows of `kind` ('company' or 'logo', directory_search_source) that
-- match `term` within the filters (NULL: none; companies only), in search order
-- (directory_search_ranked), and how many match in all: the page functions' search.
-- Each statement is prepared once per connection; those of a one-word term are planned
-- for its patterns.
--
-- A term of several words matches few rows: they are found (directory_search_found),
-- ranked and the window kept (directory_search_ranked); so are the matches of a
-- one-word term when they are few.
-- But a one-word term can match a good part of the catalogue ("ria": a fifth of it), and
-- ranking all of those is what would make it slow. Its matches fall into six rank
-- classes (directory_search_class_rank), each the difference of two nested pattern sets
-- (directory_search_class_patterns), current logos before the others: two passes over
-- the classes, the current rows, then the others (every company is current, so its
-- search ends in the first). For each class up to the window, one pass over its pattern
-- set, which the trigram index finds, counts its rows by document length
-- (directory_search_lengths, directory_search_histogram); the window then lies in a
-- known range of lengths (directory_search_window), and only the rows of that range are
-- read, found by the trigram index and the index on length(search_doc) together, and
-- ranked. A company word of three letters without filters reads those histograms from
-- directory_company_gram instead of counting (directory_company_gram_lengths).
CREATE OR REPLACE FUNCTION directory_search(
  kind text, term text, sectors bigint[], province_folded text, skip integer,
  take integer, OUT total bigint, OUT ids uuid[])
  LANGUAGE plpgsql STABLE AS $$
DECLARE
  -- Up to this many matches, ranking them all costs less than reading them by class.
  RANK_ALL CONSTANT integer := 2000;
  plan directory_search_plan;
  split boolean;
  matched uuid[];      -- the rows a term of several words matches
  counted boolean;     -- the histograms come from directory_company_gram
  matches record;      -- the histograms of every match (directory_search_lengths)
  found record;        -- ... of the class's pattern set
  set_lengths integer[];
  set_counts bigint[];
  before_lengths integer[];
  before_counts bigint[];
  class_lengths integer[];
  class_counts bigint[];
  of_current boolean;  -- the pass: the current rows, then the others
  done bigint := 0;    -- rows of the classes before this one
  shortest integer;    -- the lengths that hold the window's rows of this class
  longest integer;
  skipped bigint;      -- rows of this class in that range that come before the window
BEGIN
  total := 0;
  ids := '{}';
  -- Words read as two typed together only when the term finds nothing otherwise.
  FOREACH split IN ARRAY ARRAY[false, true] LOOP
    plan := directory_search_plan(term, split);
    IF array_length(plan.match, 1) > 1 THEN
      matched := directory_search_found(kind, plan, sectors, province_folded);
      total := cardinality(matched);
      ids := directory_search_ranked(kind, plan, NULL, NULL, matched, NULL, NULL, NULL, NULL,
                                     NULL, NULL, skip, take);
    ELSIF array_length(plan.match, 1) = 1 THEN
      counted := kind = 'company' AND cardinality(plan.words) = 1
                 AND length(plan.words[1]) = 3
                 AND num_nonnulls(VARIADIC plan.match) = 1
                 AND sectors IS NULL AND province_folded IS NULL;
      IF counted THEN
        SELECT * INTO matches FROM directory_company_gram_lengths(plan.words[1], 6);
      ELSE
        SELECT * INTO matches
        FROM directory_search_lengths(kind, plan.loose, plan.near_words || plan.far_words,
                                      NULL, sectors, province_folded);
      END IF;
      total := (SELECT coalesce(sum(n), 0) FROM unnest(matches.counts) AS n);
      IF total > skip AND total <= RANK_ALL THEN
        ids := directory_search_ranked(kind, plan, sectors, province_folded, NULL, plan.loose,
                                       plan.near_words || plan.far_words, NULL, NULL, NULL,
                                       NULL, skip, take);
      ELSIF total > skip THEN
        FOREACH of_current IN ARRAY ARRAY[true, false] LOOP
          before_lengths := '{}';
          before_counts := '{}';
          FOR class IN 1..6 LOOP
            EXIT WHEN done >= least(total, skip + take);
            IF class = 6 OR class = 5 AND num_nonnulls(VARIADIC plan.far) = 0
               OR class = 4 AND num_nonnulls(VARIADIC plan.near || plan.far) = 0 THEN
              found := matches;
            ELSIF counted AND class <> 2 THEN
              SELECT * INTO found FROM directory_company_gram_lengths(plan.words[1], class);
            ELSIF class = 1 THEN
              -- Exact names hold the word whole: one pass counts both sets.
              SELECT * INTO found
              FROM directory_search_lengths(kind, plan.whole, '{}', plan.exact, sectors,
                                            province_folded);
            ELSIF class > 2 THEN
              SELECT * INTO found
              FROM directory_search_lengths(kind, directory_search_class_patterns(plan, class),
                                            directory_search_class_words(plan, class), NULL,
                                            sectors, province_folded);
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
                CASE class WHEN 1 THEN found.current_subset_counts
                           ELSE found.current_counts END) h;
            END IF;
            SELECT h.class_lengths, h.class_counts INTO class_lengths, class_counts
            FROM directory_search_histogram(set_lengths, set_counts, before_lengths,
                                            before_counts) h;
            before_lengths := set_lengths;
            before_counts := set_counts;
            SELECT w.shortest, w.longest, w.skipped INTO shortest, longest, skipped
            FROM directory_search_window(class_lengths, class_counts, done, skip, take) w;
            IF shortest IS NOT NULL THEN
              ids := ids || directory_search_ranked(
                kind, plan, sectors, province_folded, NULL,
                directory_search_class_patterns(plan, class),
                directory_search_class_words(plan, class), shortest, longest, of_current,
                class, skipped, take - cardinality(ids));
            END IF;
            done := done + (SELECT coalesce(sum(n), 0) FROM unnest(class_counts) AS n);
          END LOOP;
        END LOOP;
      END IF;
    END IF;
    EXIT WHEN total > 0 OR plan.words IS NULL;
  END LOOP;
END $$;
