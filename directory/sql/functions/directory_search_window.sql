-- Where the window of rows `skip` to `skip + take` of a search lies within one rank class
-- whose rows, by search-document length, `lengths` and `counts` give, when `done` rows
-- of earlier classes come before it: the range of lengths holding the window's rows of
-- this class (NULL when it holds none), and how many of the range's rows come before
-- the window. Used by directory_search.
CREATE OR REPLACE FUNCTION directory_search_window(
  lengths integer[], counts bigint[], done bigint, skip integer, take integer,
  OUT shortest integer, OUT longest integer, OUT skipped bigint)
  LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
  WITH classes AS (
    SELECT h.length, done + sum(h.count) OVER (ORDER BY h.length) - h.count AS before,
           done + sum(h.count) OVER (ORDER BY h.length) AS through
    FROM unnest(lengths, counts) AS h(length, count)
  ), window_rows AS (
    SELECT c.length, c.before FROM classes c WHERE c.through > skip AND c.before < skip + take
  )
  SELECT min(w.length), max(w.length), greatest(skip - min(w.before), 0)
  INTO shortest, longest, skipped
  FROM window_rows w;
END $$;
