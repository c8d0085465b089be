-- How the rows of `kind` within the filters (directory_search_source) that match `plan`,
-- a one-word term, fall into its rank classes (directory_search_class_rank): for each
-- rank, current or not (every company is current) and search-document length, how many.
-- One pass over the matches, which the trigram index finds by `loose` and the index on a
-- document's words by the corrections, ranking each (directory_search_rank): the
-- histograms directory_search places its window with.
CREATE OR REPLACE FUNCTION directory_search_classes(
  kind text, plan directory_search_plan, sectors bigint[], province_folded text,
  OUT ranks integer[], OUT currents boolean[], OUT lengths integer[], OUT counts bigint[])
  LANGUAGE plpgsql STABLE AS $$
BEGIN
  SELECT coalesce(array_agg(h.rank), '{}'), coalesce(array_agg(h.is_current), '{}'),
         coalesce(array_agg(h.length), '{}'), coalesce(array_agg(h.count), '{}')
  INTO ranks, currents, lengths, counts
  FROM (SELECT directory_search_rank(r.search_doc, plan) AS rank, r.is_current,
               length(r.search_doc) AS length, count(*) AS count
        FROM directory_search_source(kind, sectors, province_folded) r
        WHERE r.search_doc LIKE ANY (plan.loose)
           OR string_to_array(r.search_doc, ' ') && (plan.near_words || plan.far_words)
        GROUP BY 1, 2, 3) h;
END $$;
