-- The window `skip` to `skip + take`, in search order, of the rows of `kind` within the
-- filters (directory_search_source) matching `plan` and: among `matched` or, given
-- `patterns`, matching one or holding one of `words` (corrections); `shortest` to `longest`
-- long; current or not; of rank class `class`; NULL: any. `total`: the rows all but the
-- class find, in the same pass (half the cost of counting apart). The one statement
-- writing the search order. Planned per call: NULL conditions fall away, the rank folds;
-- under directory_search_found's generic plans for few rows, read by the primary key.
DROP FUNCTION IF EXISTS directory_search_ranked(
  text, directory_search_plan, bigint[], text, uuid[], text[], integer, integer, boolean,
  integer, bigint, integer);
DROP FUNCTION IF EXISTS directory_search_ranked(
  text, directory_search_plan, bigint[], text, uuid[], text[], text[], integer, integer,
  boolean, integer, bigint, integer);
CREATE OR REPLACE FUNCTION directory_search_ranked(
  kind text, plan directory_search_plan, sectors bigint[], province_folded text,
  matched uuid[], patterns text[], words text[], shortest integer, longest integer, of_current boolean,
  class integer, skip bigint, take integer, OUT total bigint, OUT ids uuid[])
  LANGUAGE plpgsql STABLE AS $$
BEGIN
  -- The first `skip + take` rows (no OFFSET: a page past the end still returns the count);
  -- the subquery ranks each row once.
  SELECT coalesce(max(s.total), 0), coalesce(array_agg(s.id), '{}')
  INTO total, ids
  FROM (SELECT s.*,
               CASE WHEN s.rank = 0
                    THEN regexp_replace(s.tie, '[^a-z0-9]+', '', 'g') <> plan.spelling
                    ELSE s.tie !~ plan.legal END AS typed
        FROM (SELECT r.id, r.is_current, directory_search_rank(r.search_doc, plan) AS rank,
                     length(r.search_doc) AS length, r.tie, count(*) OVER () AS total
              FROM directory_search_source(kind, sectors, province_folded) r
              WHERE (patterns IS NULL AND r.id = ANY (matched) OR r.search_doc LIKE ANY (patterns)
                     OR string_to_array(r.search_doc, ' ') && words)
                AND (shortest IS NULL OR length(r.search_doc) BETWEEN shortest AND longest)
                AND (of_current IS NULL OR r.is_current = of_current)
              OFFSET 0) s
        WHERE class IS NULL OR s.rank = directory_search_class_rank(class)
        ORDER BY s.is_current DESC, s.rank, typed, s.length, s.tie, s.id
        LIMIT skip + take) s;
  ids := ids[skip::integer + 1:];
END $$;
