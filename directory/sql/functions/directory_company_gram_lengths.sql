-- The histograms directory_search_lengths would count for a company search of `gram`, a
-- word of three letters as typed, without filters, read from directory_company_gram
-- instead: the whole-word set with the exact names as its subset (`class` 1 or 2), the
-- word-start set (3), or every match (otherwise). Every company counts as current.
CREATE OR REPLACE FUNCTION directory_company_gram_lengths(
  gram text, class integer,
  OUT lengths integer[], OUT counts bigint[], OUT subset_counts bigint[],
  OUT current_counts bigint[], OUT current_subset_counts bigint[])
  LANGUAGE plpgsql STABLE AS $$
BEGIN
  SELECT coalesce(array_agg(g.length ORDER BY g.length), '{}'),
         coalesce(array_agg(CASE WHEN class <= 2 THEN g.whole WHEN class = 3 THEN g.start
                                 ELSE g.inside END ORDER BY g.length), '{}'),
         coalesce(array_agg(g.exact ORDER BY g.length), '{}')
  INTO lengths, counts, subset_counts
  FROM directory_company_gram g WHERE g.gram = directory_company_gram_lengths.gram;
  current_counts := counts;
  current_subset_counts := subset_counts;
END $$;
