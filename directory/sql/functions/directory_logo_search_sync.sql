-- What logo writes change beside the row (statement triggers directory_logo_search_*):
-- the lexicon (directory_search_learn) learns the words of new and retitled logos, as
-- named, and new, gone and changed search documents, and logos current again or no
-- longer, move the gram counts and postings (directory_search_grams_add). A download
-- changes none of those, and writes nothing.
-- Planned once per connection, with what it calls (plan_cache_mode: docs/sql.md).
CREATE OR REPLACE FUNCTION directory_logo_search_sync() RETURNS trigger
  LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  ids uuid[];
  docs text[];
  currents boolean[];
  signs integer[];
BEGIN
  -- A transition table exists only for the operations that have it.
  IF TG_OP = 'INSERT' THEN
    PERFORM directory_search_learn(ARRAY(SELECT n.title FROM new_rows n), true);
    SELECT array_agg(n.id), array_agg(n.search_doc), array_agg(n.is_current), array_agg(1)
    INTO ids, docs, currents, signs FROM new_rows n;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(o.id), array_agg(o.search_doc), array_agg(o.is_current), array_agg(-1)
    INTO ids, docs, currents, signs FROM old_rows o;
  ELSE
    PERFORM directory_search_learn(ARRAY(
      SELECT n.title FROM new_rows n EXCEPT SELECT o.title FROM old_rows o), true);
    SELECT array_agg(id), array_agg(d.doc), array_agg(d.is_current), array_agg(d.sign)
    INTO ids, docs, currents, signs
    FROM new_rows n JOIN old_rows o USING (id),
         LATERAL (VALUES (n.search_doc, n.is_current, 1),
                         (o.search_doc, o.is_current, -1)) AS d(doc, is_current, sign)
    WHERE (n.search_doc, n.is_current) <> (o.search_doc, o.is_current);
  END IF;
  IF ids IS NOT NULL THEN
    PERFORM directory_search_grams_add('logo', docs, currents, signs, ids);
  END IF;
  RETURN NULL;
END $$;
