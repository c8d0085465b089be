-- The rows of `kind` within the filters (directory_search_source) whose search documents
-- match one of `patterns` or hold one of `words` (typo corrections, which the index on a
-- document's words finds), counted by document length (ascending): all of them, those
-- that also match one of `subset` (NULL: none), and of each, the current ones. The
-- histograms directory_search places a window with.
DROP FUNCTION IF EXISTS directory_search_lengths(text, text[], text[], bigint[], text);
CREATE OR REPLACE FUNCTION directory_search_lengths(
  kind text, patterns text[], words text[], subset text[], sectors bigint[], province_folded text,
  OUT lengths integer[], OUT counts bigint[], OUT subset_counts bigint[],
  OUT current_counts bigint[], OUT current_subset_counts bigint[])
  LANGUAGE plpgsql STABLE AS $$
BEGIN
  SELECT coalesce(array_agg(h.length ORDER BY h.length), '{}'),
         coalesce(array_agg(h.count ORDER BY h.length), '{}'),
         coalesce(array_agg(h.subset_count ORDER BY h.length), '{}'),
         coalesce(array_agg(h.current_count ORDER BY h.length), '{}'),
         coalesce(array_agg(h.current_subset_count ORDER BY h.length), '{}')
  INTO lengths, counts, subset_counts, current_counts, current_subset_counts
  FROM (SELECT length(r.search_doc) AS length, count(*) AS count,
               count(*) FILTER (WHERE r.search_doc LIKE ANY (subset)) AS subset_count,
               count(*) FILTER (WHERE r.is_current) AS current_count,
               count(*) FILTER (WHERE r.is_current AND r.search_doc LIKE ANY (subset))
                 AS current_subset_count
        FROM directory_search_source(kind, sectors, province_folded) r
        WHERE (r.search_doc LIKE ANY (patterns) OR string_to_array(r.search_doc, ' ') && words)
        GROUP BY 1) h;
END $$;
