-- The window of rows `skip` to `skip + take`, in search order, of the rows of `kind`
-- within the filters (directory_search_source) that match `plan` and are: among `matched`
-- or, given `patterns`, matching one of them or holding one of `words` (typo corrections,
-- which the index on a document's words finds), `shortest` to `longest` letters long,
-- current or not (`of_current`), of rank class `class` (directory_search_class_rank);
-- NULL: any. The search order of company and logo search (docs/search.md), written here
-- only: current logos first, then directory_search_rank, names as typed (of the names
-- exactly the term, those written so, `plan.spelling`: its legal form, "&" or "e"; of the
-- others, those ending with the legal form typed, `plan.legal`), the shorter search
-- document, the name or title, the id. `total`: the rows all conditions but the class
-- find, counted in the same pass (a one-word term's total when its matches are read at
-- once, which costs about half of counting by class and then reading the window).
-- Planned for each call's values, so the NULL conditions fall away and the statement
-- reads the rows by the primary key, the trigram index, or that and the length index
-- together; once per connection under directory_search_found's generic plans (a term of
-- few rows), which read `matched` by the primary key (as they would not `matched IS NULL
-- OR ...`): planning directory_search_rank for a plan's values cost more than ranking them.
-- The subquery computes each row's rank once.
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
  -- The first `skip + take` rows (without OFFSET, so that a page past the end still
  -- returns the count), which the aggregate takes in the order the LIMIT's sort gives.
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
