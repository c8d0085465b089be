-- What logo writes change beside the row (statement triggers directory_logo_search_*):
-- the lexicon (directory_search_learn) learns the words of new and retitled logos, as
-- named, and directory_search_gram counts the three-letter runs of their search
-- documents, current or not (directory_search_grams_add). A download updates its logo
-- row but neither its title, its document nor whether it is current: the EXCEPTs leave
-- nothing, and nothing is written.
-- Planned once per connection, with what it calls (plan_cache_mode: docs/sql.md).
CREATE OR REPLACE FUNCTION directory_logo_search_sync() RETURNS trigger
  LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  docs text[];
  currents boolean[];
  signs integer[];
BEGIN
  -- A transition table exists only for the operations that have it.
  IF TG_OP = 'INSERT' THEN
    PERFORM directory_search_learn(ARRAY(SELECT n.title FROM new_rows n), true);
    SELECT array_agg(n.search_doc), array_agg(n.is_current), array_agg(1)
    INTO docs, currents, signs FROM new_rows n;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(o.search_doc), array_agg(o.is_current), array_agg(-1)
    INTO docs, currents, signs FROM old_rows o;
  ELSE
    PERFORM directory_search_learn(ARRAY(
      SELECT n.title FROM new_rows n EXCEPT SELECT o.title FROM old_rows o), true);
    SELECT array_agg(d.doc), array_agg(d.is_current), array_agg(d.sign)
    INTO docs, currents, signs
    FROM ((SELECT n.search_doc AS doc, n.is_current, 1 AS sign FROM new_rows n
           EXCEPT ALL SELECT o.search_doc, o.is_current, 1 FROM old_rows o)
          UNION ALL
          (SELECT o.search_doc, o.is_current, -1 FROM old_rows o
           EXCEPT ALL SELECT n.search_doc, n.is_current, -1 FROM new_rows n)) d;
  END IF;
  IF docs IS NOT NULL THEN
    PERFORM directory_search_grams_add('logo', docs, currents, signs);
  END IF;
  RETURN NULL;
END $$;
