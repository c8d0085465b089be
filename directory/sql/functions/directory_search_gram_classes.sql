-- The matches of `gram`, three letters as typed, by class (exact names 1, whole 2, word
-- start 3, inside 4), current or not and length: each set holds the one before.
CREATE OR REPLACE FUNCTION directory_search_gram_classes(
  kind text, gram text,
  OUT ranks integer[], OUT currents boolean[], OUT lengths integer[], OUT counts bigint[])
  LANGUAGE plpgsql STABLE AS $$
BEGIN
  SELECT coalesce(array_agg(directory_search_class_rank(c.class)), '{}'),
         coalesce(array_agg(g.is_current), '{}'), coalesce(array_agg(g.length), '{}'),
         coalesce(array_agg(c.count), '{}')
  INTO ranks, currents, lengths, counts
  FROM directory_search_gram g,
       LATERAL (VALUES (1, g.exact), (2, g.whole - g.exact), (3, g.start - g.whole),
                       (4, g.inside - g.start)) AS c(class, count)
  WHERE g.kind = directory_search_gram_classes.kind
    AND g.gram = directory_search_gram_classes.gram AND c.count > 0;
END $$;
