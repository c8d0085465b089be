-- What company writes change beside the row (statement triggers
-- directory_company_search_*): the lexicon learns new names and "about" texts; search
-- documents move the gram counts and postings; directory_company_tally counts companies
-- per (sector, province), so that a listing without a term need not visit rows; logos,
-- whose search_doc holds their company's name, get theirs again on a rename (one
-- statement for a batch). Updates that change none of those write nothing.
-- Planned once per connection, with what it calls (plan_cache_mode: docs/sql.md).
CREATE OR REPLACE FUNCTION directory_company_search_sync() RETURNS trigger
  LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  sectors bigint[];
  provinces text[];
  signs integer[];
  ids uuid[];
  docs text[];
  doc_signs integer[];
BEGIN
  -- A transition table exists only for the operations that have it.
  IF TG_OP = 'INSERT' THEN
    PERFORM directory_search_learn(ARRAY(
      SELECT t.text FROM new_rows n,
             unnest(ARRAY[n.name] || n.alternative_names) AS t(text)), true);
    PERFORM directory_search_learn(ARRAY(SELECT n.about FROM new_rows n), false);
    SELECT array_agg(n.id), array_agg(n.search_doc), array_agg(n.sector_id),
           array_agg(n.province_fold), array_agg(1)
    INTO ids, docs, sectors, provinces, signs FROM new_rows n;
    doc_signs := signs;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(o.id), array_agg(o.search_doc), array_agg(o.sector_id),
           array_agg(o.province_fold), array_agg(-1)
    INTO ids, docs, sectors, provinces, signs FROM old_rows o;
    doc_signs := signs;
  ELSE
    UPDATE directory_logo l SET search_doc = r.doc
    FROM (SELECT g.id, directory_search_doc(g.title, ARRAY[n.name]) AS doc
          FROM new_rows n JOIN old_rows o USING (id) JOIN directory_logo g ON g.company_id = n.id
          WHERE n.name IS DISTINCT FROM o.name) r
    WHERE l.id = r.id AND l.search_doc IS DISTINCT FROM r.doc;
    SELECT array_agg(id), array_agg(d.doc), array_agg(d.sign) INTO ids, docs, doc_signs
    FROM new_rows n JOIN old_rows o USING (id),
         LATERAL (VALUES (n.search_doc, 1), (o.search_doc, -1)) AS d(doc, sign)
    WHERE n.search_doc <> o.search_doc;
    PERFORM directory_search_learn(ARRAY(
      SELECT t.text
      FROM (SELECT n.name, n.alternative_names FROM new_rows n
            EXCEPT SELECT o.name, o.alternative_names FROM old_rows o) c,
           unnest(ARRAY[c.name] || c.alternative_names) AS t(text)), true);
    PERFORM directory_search_learn(ARRAY(
      SELECT n.about FROM new_rows n EXCEPT SELECT o.about FROM old_rows o), false);
    SELECT array_agg(d.sector_id), array_agg(d.province_fold), array_agg(d.sign)
    INTO sectors, provinces, signs
    FROM (
      (SELECT n.sector_id, n.province_fold, 1 AS sign FROM new_rows n
       EXCEPT ALL SELECT o.sector_id, o.province_fold, 1 FROM old_rows o)
      UNION ALL
      (SELECT o.sector_id, o.province_fold, -1 FROM old_rows o
       EXCEPT ALL SELECT n.sector_id, n.province_fold, -1 FROM new_rows n)
    ) d;
  END IF;
  IF ids IS NOT NULL THEN
    PERFORM directory_search_grams_add(
      'company', docs, array_fill(true, ARRAY[cardinality(ids)]), doc_signs, ids);
  END IF;

  PERFORM directory_company_tally_add(sectors, provinces, signs);
  RETURN NULL;
END $$;
