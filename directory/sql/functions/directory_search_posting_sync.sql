-- Keeps directory_search_posting beside the companies and logos (statement triggers
-- directory_company_posting_* and directory_logo_posting_*, the kind their argument):
-- a document deleted, changed, or of a logo that became current or stopped being so,
-- has its words removed, and a new or changed one added (directory_search_posting_add).
-- Other updates (a download, a company's "about": most of them) write nothing. Emptying
-- the companies, and so the logos, empties it. Planned once per connection
-- (plan_cache_mode: docs/sql.md).
CREATE OR REPLACE FUNCTION directory_search_posting_sync() RETURNS trigger
  LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  of_kind text := TG_ARGV[0];
  gone uuid[];        -- the rows whose words go, and their documents
  gone_docs text[];
  ids uuid[];         -- the rows whose words come, their documents and whether current
  docs text[];
  currents boolean[];
BEGIN
  -- A transition table exists only for the operations that have it; only logos have
  -- is_current.
  IF TG_OP = 'TRUNCATE' THEN
    TRUNCATE directory_search_posting;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(o.id), array_agg(o.search_doc) INTO gone, gone_docs FROM old_rows o;
  ELSIF TG_OP = 'INSERT' AND of_kind = 'company' THEN
    SELECT array_agg(n.id), array_agg(n.search_doc), array_agg(true)
    INTO ids, docs, currents FROM new_rows n;
  ELSIF TG_OP = 'INSERT' THEN
    SELECT array_agg(n.id), array_agg(n.search_doc), array_agg(n.is_current)
    INTO ids, docs, currents FROM new_rows n;
  ELSIF of_kind = 'company' THEN
    SELECT array_agg(o.id), array_agg(o.search_doc), array_agg(n.search_doc), array_agg(true)
    INTO gone, gone_docs, docs, currents
    FROM old_rows o JOIN new_rows n ON n.id = o.id WHERE n.search_doc <> o.search_doc;
  ELSE
    SELECT array_agg(o.id), array_agg(o.search_doc), array_agg(n.search_doc),
           array_agg(n.is_current)
    INTO gone, gone_docs, docs, currents
    FROM old_rows o JOIN new_rows n ON n.id = o.id
    WHERE n.search_doc <> o.search_doc OR n.is_current <> o.is_current;
  END IF;
  IF gone IS NOT NULL THEN
    DELETE FROM directory_search_posting p
    USING unnest(gone, gone_docs) AS o(id, doc), unnest(string_to_array(o.doc, ' ')) AS w(word)
    WHERE p.kind = of_kind AND p.word = w.word AND p.id = o.id;
  END IF;
  IF docs IS NOT NULL THEN
    PERFORM directory_search_posting_add(of_kind, coalesce(ids, gone), docs, currents);
  END IF;
  RETURN NULL;
END $$;
