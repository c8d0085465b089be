-- How many rows of `kind` within the filters (directory_search_source) match `plan`, a
-- one-word term; when they are `few` or fewer, their ids, which directory_search ranks
-- all, by them, without looking them up again; otherwise how they fall into the term's
-- rank classes (directory_search_class_rank): for each rank, current or not (every
-- company is current) and search-document length, how many, the histograms
-- directory_search places its window with. The trigram index finds the matches by
-- `loose`, the index on a document's words by the corrections. Counting first costs a
-- second pass over the many, but spares ranking the few twice, and most terms match few.
CREATE OR REPLACE FUNCTION directory_search_classes(
  kind text, plan directory_search_plan, sectors bigint[], province_folded text, few integer,
  OUT total bigint, OUT ranks integer[], OUT currents boolean[],
  OUT lengths integer[], OUT counts bigint[])
  LANGUAGE plpgsql STABLE AS $$
BEGIN
  SELECT count(*) INTO total
  FROM directory_search_source(kind, sectors, province_folded) r
  WHERE r.search_doc LIKE ANY (plan.loose)
     OR string_to_array(r.search_doc, ' ') && (plan.near_words || plan.far_words);
  IF total > few THEN
    SELECT array_agg(h.rank), array_agg(h.is_current), array_agg(h.length), array_agg(h.count)
    INTO ranks, currents, lengths, counts
    FROM (SELECT directory_search_rank(r.search_doc, plan) AS rank, r.is_current,
                 length(r.search_doc) AS length, count(*) AS count
          FROM directory_search_source(kind, sectors, province_folded) r
          WHERE r.search_doc LIKE ANY (plan.loose)
             OR string_to_array(r.search_doc, ' ') && (plan.near_words || plan.far_words)
          GROUP BY 1, 2, 3) h;
  END IF;
END $$;
