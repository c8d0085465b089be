-- How many rows of each search-document length one rank class of a one-word search
-- holds: a pattern set's histogram (lengths ascending, counts) minus the histogram of
-- the classes ranked before it, whose patterns it contains (directory_search).
CREATE OR REPLACE FUNCTION directory_search_histogram(
  lengths integer[], counts bigint[], before_lengths integer[], before_counts bigint[],
  OUT class_lengths integer[], OUT class_counts bigint[])
  LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
  SELECT coalesce(array_agg(h.length ORDER BY h.length), '{}'),
         coalesce(array_agg(h.count ORDER BY h.length), '{}')
  INTO class_lengths, class_counts
  FROM (SELECT s.length, s.count - coalesce(b.count, 0) AS count
        FROM unnest(lengths, counts) AS s(length, count)
        LEFT JOIN unnest(before_lengths, before_counts) AS b(length, count)
          ON b.length = s.length) h
  WHERE h.count > 0;
END $$;
