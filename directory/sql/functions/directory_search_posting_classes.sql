-- The matches of `plan`, one required word of four letters or more (and its abbreviation
-- written out), among the rows of `kind` (directory_search_posting holds every word it can
-- be in): how many, and the rows that can hold the window `skip` to `skip + take` (`kept`,
-- after `before` rows; `whole`: all of their ranks' rows). The lexicon's words holding
-- the word, and its corrections, are ranked as directory_search_rank ranks a document of
-- that word alone; a document takes its best word's rank, or 0 when its name is the term
-- (a posting marked as a whole name; beside words not required, "centro m", the documents
-- holding all). Search order is current first, rank, length: `kept` is whole groups of
-- those (the exact names one: ordered as typed first). With a legal form, which puts the
-- names ending with it first in every rank, `reach` times the shortest rows the window
-- needs of a rank. Generic plans: the same whatever the word.
DROP FUNCTION IF EXISTS directory_search_posting_classes(text, directory_search_plan);
DROP FUNCTION IF EXISTS directory_search_posting_classes(
  text, directory_search_plan, integer, integer);
CREATE OR REPLACE FUNCTION directory_search_posting_classes(
  kind text, plan directory_search_plan, skip integer, take integer, reach integer,
  OUT total bigint, OUT kept uuid[], OUT before bigint, OUT whole boolean)
  LANGUAGE plpgsql STABLE
  SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  name text := btrim(plan.exact[1], '%| ');
  exact uuid[];
  words text[];
  word_ranks integer[];
BEGIN
  IF strpos(name, ' ') = 0 THEN
    exact := ARRAY(SELECT p.id FROM directory_search_posting p
                   WHERE p.kind = directory_search_posting_classes.kind AND p.word = name
                     AND p.named);
  ELSE
    exact := ARRAY(SELECT r.id FROM directory_search_source(kind, NULL, NULL) r
                   WHERE string_to_array(r.search_doc, ' ') @> string_to_array(name, ' ')
                     AND r.search_doc LIKE ANY (plan.exact));
  END IF;
  SELECT array_agg(w.word), array_agg(directory_search_rank(' ' || w.word || ' ', plan))
  INTO words, word_ranks
  FROM (SELECT s.word FROM directory_search_word s WHERE s.word LIKE ANY (plan.inside)
        UNION
        SELECT unnest(plan.near_words || plan.far_words) COLLATE "C") AS w(word)
  WHERE w.word IS NOT NULL;
  WITH d AS (SELECT p.id, CASE WHEN p.id = ANY (exact) THEN 0 ELSE min(w.rank) END AS rank,
                    bool_or(p.is_current) AS is_current,
                    CASE WHEN NOT p.id = ANY (exact) THEN max(p.length) ELSE 0 END AS length
             FROM unnest(words, word_ranks) AS w(word, rank)
             JOIN directory_search_posting p
               ON p.kind = directory_search_posting_classes.kind AND p.word = w.word
             GROUP BY p.id),
       g AS (SELECT g.*, CASE WHEN plan.legal IS NULL OR g.rank = 0
                              THEN g.after - g.size < skip + take AND g.after > skip
                              ELSE g.ranked > skip AND g.ranked - g.in_rank < skip + take
                                   AND g.after - g.size - g.ranked + g.in_rank
                                       < reach * (skip + take - g.ranked + g.in_rank) END AS kept
             FROM (SELECT g.*, sum(g.size) OVER (ORDER BY g.is_current DESC, g.rank, g.length) AS after,
                          sum(g.size) OVER (ORDER BY g.is_current DESC, g.rank) AS ranked,
                          sum(g.size) OVER (PARTITION BY g.is_current, g.rank) AS in_rank
                   FROM (SELECT d.is_current, d.rank, d.length, count(*) AS size FROM d
                         GROUP BY d.is_current, d.rank, d.length) g) g)
  SELECT (SELECT coalesce(sum(g.size), 0) FROM g),
         ARRAY(SELECT d.id FROM d JOIN g USING (is_current, rank, length) WHERE g.kept),
         (SELECT coalesce(min(g.after - g.size), 0) FROM g WHERE g.kept),
         (SELECT coalesce(bool_and(g.kept), true) FROM g
          WHERE g.ranked > skip AND g.ranked - g.in_rank < skip + take)
  INTO total, kept, before, whole;
END $$;
