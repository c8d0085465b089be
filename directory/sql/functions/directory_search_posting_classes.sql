-- The window `skip` to `skip + take` of the rows of `kind` matching `plan`, one required
-- word of four letters or more, and how many match, from directory_search_posting. Words
-- holding the word, and its corrections, rank as directory_search_rank ranks a document of
-- that word alone; a document takes its best word's, or 0 when its name is the term (a
-- posting marked as a whole name; beside words not required, "centro m", the documents
-- holding all). The window lies in whole groups of current, rank and length (search order;
-- exact names, ordered as typed first, are one), whose rows a second pass over the
-- postings in their lengths names (keeping every match's row to join back cost twice the
-- first). A legal form typed puts the names ending with it first in every rank: of the
-- ranks holding the window, the shortest rows, 8 then 64 times as many as it needs, until
-- its last row ends with the form. Generic plans: the same for any word.
DROP FUNCTION IF EXISTS directory_search_posting_classes(text, directory_search_plan);
CREATE OR REPLACE FUNCTION directory_search_posting_classes(
  kind text, plan directory_search_plan, skip integer, take integer,
  OUT total bigint, OUT ids uuid[])
  LANGUAGE plpgsql STABLE
  SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  name text := btrim(plan.exact[1], '%| ');
  exact uuid[];
  words text[];
  word_ranks integer[];
  groups record;     -- the matches by current or not, rank and length
  kept record;       -- those holding the window, the rows before them, their lengths
  reach integer := 8;
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
  SELECT array_agg(c.is_current) AS currents, array_agg(c.rank) AS ranks,
         array_agg(c.length) AS lengths, array_agg(c.size) AS sizes, sum(c.size) AS total
  INTO groups
  FROM (SELECT d.is_current, d.rank, d.length, count(*) AS size
        FROM (SELECT bool_or(p.is_current) AS is_current,
                     CASE WHEN p.id = ANY (exact) THEN 0 ELSE min(w.rank) END AS rank,
                     CASE WHEN p.id = ANY (exact) THEN 0 ELSE max(p.length) END AS length
              FROM unnest(words, word_ranks) AS w(word, rank)
              JOIN directory_search_posting p
                ON p.kind = directory_search_posting_classes.kind AND p.word = w.word
              GROUP BY p.id) d
        GROUP BY d.is_current, d.rank, d.length) c;
  total := coalesce(groups.total, 0);
  LOOP
    SELECT array_agg(g.is_current) FILTER (WHERE g.kept) AS currents,
           array_agg(g.rank) FILTER (WHERE g.kept) AS ranks,
           array_agg(g.length) FILTER (WHERE g.kept) AS lengths,
           coalesce(min(g.after - g.size) FILTER (WHERE g.kept), 0)::bigint AS before,
           coalesce(bool_and(g.kept) FILTER (WHERE g.ranked > skip
                                                 AND g.ranked - g.in_rank < skip + take), true)
             AS whole,
           min(g.length) FILTER (WHERE g.kept AND g.rank > 0) AS shortest,
           max(g.length) FILTER (WHERE g.kept AND g.rank > 0) AS longest
    INTO kept
    FROM (SELECT g.*, CASE WHEN plan.legal IS NULL OR g.rank = 0
                           THEN g.after - g.size < skip + take AND g.after > skip
                           ELSE g.ranked > skip AND g.ranked - g.in_rank < skip + take
                                AND g.after - g.size - g.ranked + g.in_rank
                                    < reach * (skip + take - g.ranked + g.in_rank) END AS kept
          FROM (SELECT g.*, sum(g.size) OVER (ORDER BY g.is_current DESC, g.rank, g.length) AS after,
                       sum(g.size) OVER (ORDER BY g.is_current DESC, g.rank) AS ranked,
                       sum(g.size) OVER (PARTITION BY g.is_current, g.rank) AS in_rank
                FROM unnest(groups.currents, groups.ranks, groups.lengths, groups.sizes)
                     AS g(is_current, rank, length, size)) g) g;
    ids := (directory_search_found(kind, plan, NULL, NULL, skip - kept.before, take, ARRAY(
      SELECT d.id
      FROM (SELECT p.id, bool_or(p.is_current) AS is_current,
                   CASE WHEN p.id = ANY (exact) THEN 0 ELSE min(w.rank) END AS rank,
                   CASE WHEN p.id = ANY (exact) THEN 0 ELSE max(p.length) END AS length
            FROM unnest(words, word_ranks) AS w(word, rank)
            JOIN directory_search_posting p
              ON p.kind = directory_search_posting_classes.kind AND p.word = w.word
            WHERE p.length BETWEEN kept.shortest AND kept.longest OR p.id = ANY (exact)
            GROUP BY p.id) d
      WHERE (d.is_current, d.rank, d.length)
            IN (SELECT * FROM unnest(kept.currents, kept.ranks, kept.lengths))))).ids;
    -- Enough once the window's last row ends with the form: the unread such are longer.
    EXIT WHEN plan.legal IS NULL OR kept.whole OR cardinality(ids) = take
              AND EXISTS (SELECT FROM directory_search_source(kind, NULL, NULL) r
                          WHERE r.id = ids[take] AND r.tie ~ plan.legal);
    reach := reach * 8;
  END LOOP;
END $$;
