-- One window of the companies that match `plan` within the filters (NULL: none), in
-- search order (docs/search.md: directory_search_rank, then the shorter search document,
-- the name, the id), and how many match in all. Each statement is prepared once per
-- connection; those of a one-word term are planned for its patterns.
--
-- A term of several words matches few companies: they are ranked and the window kept
-- (directory_company_search_words); so are the matches of a one-word term when they are
-- few. But a one-word term can match a good part of the catalogue ("ria": a fifth of it),
-- and ranking all of those is what would make it slow. Its matches fall into six rank
-- classes (directory_search_class_rank), each the difference of two nested pattern sets
-- (directory_search_class_patterns). So for each class up to the window, one pass over
-- its pattern set, which the trigram index finds, counts its rows by document length
-- (directory_company_lengths, directory_search_histogram); the window then lies in a
-- known range of lengths (directory_search_window), and only the rows of that range are
-- read and ordered, found by the trigram index and the index on length(search_doc)
-- together. A three-letter word without filters reads those histograms from
-- directory_company_gram instead of counting.
CREATE OR REPLACE FUNCTION directory_company_search(
  plan directory_search_plan, sectors bigint[], province_folded text, skip integer,
  take integer, OUT total bigint, OUT ids uuid[])
  LANGUAGE plpgsql STABLE AS $$
DECLARE
  -- Up to this many matches, ranking them all costs less than reading them by class.
  RANK_ALL CONSTANT integer := 2000;
  words integer := array_length(plan.match, 1);
  all_lengths integer[];      -- every match: the total, and the last class's set
  all_counts bigint[];
  whole_lengths integer[];    -- the whole-word set, with the exact names in it
  whole_counts bigint[];
  exact_counts bigint[];
  start_counts bigint[];
  -- A word of three letters as typed, without filters: directory_company_gram has its
  -- histograms counted already.
  counted boolean := cardinality(plan.words) = 1 AND length(plan.words[1]) = 3
                     AND num_nonnulls(VARIADIC plan.match) = 1
                     AND sectors IS NULL AND province_folded IS NULL;
  set_lengths integer[];
  set_counts bigint[];
  before_lengths integer[] := '{}';
  before_counts bigint[] := '{}';
  class_lengths integer[];
  class_counts bigint[];
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
    SELECT s.total, s.ids INTO total, ids
    FROM directory_company_search_words(plan, sectors, province_folded, skip, take) s;
    RETURN;
  END IF;

  IF counted THEN
    SELECT coalesce(array_agg(g.length ORDER BY g.length), '{}'),
           coalesce(array_agg(g.inside ORDER BY g.length), '{}'),
           coalesce(array_agg(g.start ORDER BY g.length), '{}'),
           coalesce(array_agg(g.whole ORDER BY g.length), '{}'),
           coalesce(array_agg(g.exact ORDER BY g.length), '{}')
    INTO all_lengths, all_counts, start_counts, whole_counts, exact_counts
    FROM directory_company_gram g WHERE g.gram = plan.words[1];
  ELSE
    SELECT h.lengths, h.counts INTO all_lengths, all_counts
    FROM directory_company_lengths(plan.match, NULL, sectors, province_folded) h;
  END IF;
  total := (SELECT coalesce(sum(n), 0) FROM unnest(all_counts) AS n);
  IF total <= skip THEN
    RETURN;
  ELSIF total <= RANK_ALL THEN
    ids := ARRAY(
      SELECT c.id FROM directory_company c
      WHERE c.search_doc LIKE ANY (plan.match)
        AND (sectors IS NULL OR c.sector_id = ANY (sectors))
        AND (province_folded IS NULL OR c.province_fold = province_folded)
      ORDER BY directory_search_rank(c.search_doc, plan), length(c.search_doc), c.name_fold, c.id
      OFFSET skip LIMIT take);
    RETURN;
  END IF;
  FOR class IN 1..6 LOOP
    EXIT WHEN done >= least(total, skip + take);
    IF class = 6 OR class = 5 AND num_nonnulls(VARIADIC plan.far) = 0
       OR class = 4 AND num_nonnulls(VARIADIC plan.near || plan.far) = 0 THEN
      set_lengths := all_lengths;
      set_counts := all_counts;
    ELSIF counted THEN
      set_lengths := all_lengths;
      set_counts := CASE class WHEN 1 THEN exact_counts WHEN 2 THEN whole_counts
                               ELSE start_counts END;
    ELSIF class <= 2 THEN
      -- Exact names hold the word whole: one pass counts both sets.
      IF class = 1 THEN
        SELECT h.lengths, h.counts, h.subset_counts INTO whole_lengths, whole_counts, exact_counts
        FROM directory_company_lengths(plan.whole, plan.exact, sectors, province_folded) h;
      END IF;
      set_lengths := whole_lengths;
      set_counts := CASE class WHEN 1 THEN exact_counts ELSE whole_counts END;
    ELSE
      SELECT h.lengths, h.counts INTO set_lengths, set_counts
      FROM directory_company_lengths(directory_search_class_patterns(plan, class), NULL,
                                     sectors, province_folded) h;
    END IF;
    SELECT h.class_lengths, h.class_counts INTO class_lengths, class_counts
    FROM directory_search_histogram(set_lengths, set_counts, before_lengths, before_counts) h;
    before_lengths := set_lengths;
    before_counts := set_counts;
    SELECT w.shortest, w.longest, w.skipped INTO shortest, longest, skipped
    FROM directory_search_window(class_lengths, class_counts, done, skip, take) w;
    IF shortest IS NOT NULL THEN
      ids := ids || ARRAY(
        SELECT c.id FROM directory_company c
        WHERE c.search_doc LIKE ANY (directory_search_class_patterns(plan, class))
          AND length(c.search_doc) BETWEEN shortest AND longest
          AND directory_search_rank(c.search_doc, plan) = directory_search_class_rank(class)
          AND (sectors IS NULL OR c.sector_id = ANY (sectors))
          AND (province_folded IS NULL OR c.province_fold = province_folded)
        ORDER BY length(c.search_doc), c.name_fold, c.id
        OFFSET skipped LIMIT take - cardinality(ids));
    END IF;
    done := done + (SELECT coalesce(sum(n), 0) FROM unnest(class_counts) AS n);
  END LOOP;
END $$;
