-- The companies within the filters whose search documents match one of `patterns`,
-- counted by document length (ascending), and how many of each length also match one of
-- `subset` (NULL: none): the histograms directory_company_search places a window with.
CREATE OR REPLACE FUNCTION directory_company_lengths(
  patterns text[], subset text[], sectors bigint[], province_folded text,
  OUT lengths integer[], OUT counts bigint[], OUT subset_counts bigint[])
  LANGUAGE plpgsql STABLE AS $$
BEGIN
  SELECT coalesce(array_agg(h.length ORDER BY h.length), '{}'),
         coalesce(array_agg(h.count ORDER BY h.length), '{}'),
         coalesce(array_agg(h.subset_count ORDER BY h.length), '{}')
  INTO lengths, counts, subset_counts
  FROM (SELECT length(c.search_doc) AS length, count(*) AS count,
               count(*) FILTER (WHERE c.search_doc LIKE ANY (subset)) AS subset_count
        FROM directory_company c
        WHERE c.search_doc LIKE ANY (patterns)
          AND (sectors IS NULL OR c.sector_id = ANY (sectors))
          AND (province_folded IS NULL OR c.province_fold = province_folded)
        GROUP BY 1) h;
END $$;
