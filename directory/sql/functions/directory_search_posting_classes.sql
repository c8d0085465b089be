-- The matches of a search of `kind` for `plan`, one required word of four letters or more
-- (and its abbreviation written out) without filters, from directory_search_posting (it
-- holds every word one of four letters can be in): how many (`total`), and the rows that
-- can hold the window `skip` to `skip + take` (`kept`, after `before` rows; `whole`: with
-- them all the rows of their ranks). The lexicon's words holding the word, and its
-- corrections, are ranked as directory_search_rank ranks a document holding only that
-- word; a document takes its best word's rank, or 0 when its name is exactly the term (a
-- posting marked as a whole name or, beside words not required, "centro m", a document
-- holding all of them). Search order is current first, rank, length: `kept` is whole
-- groups of those (exact names, ordered as typed before length, are one group). A legal
-- form typed puts the names ending with it first in every rank, which lengths do not tell:
-- then, of the ranks holding the window, the shortest rows, `reach` times as many as the
-- window needs of each. Generic plans: the same whatever the word.
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
