"""Company summaries kept as JSON text, so a search page reads them instead of building them.

Building the 20 summaries of a page (the company, its sector, its current logo and a
count of its logos, as JSON) was a third of the database's time for most company
searches. directory_company_summary holds each company's summary as
directory_company_page served it; statement-level triggers on companies, logos and
sectors rebuild the summaries their changes touch.

A rebuild locks the companies it rebuilds (FOR NO KEY UPDATE, in id order), so two
transactions that change one company's logos at once take turns, and the second
builds from what the first committed: a count read before the other's commit would
otherwise be written last. No foreign key: Django's test flush truncates the
catalogue tables without CASCADE; triggers remove the summaries instead.
"""

import importlib

from django.db import migrations

_0005 = importlib.import_module("directory.migrations.0005_company_grams_and_tally")
_0009 = importlib.import_module("directory.migrations.0009_company_page_seed_pool")

SUMMARY_OBJECT = """json_build_object(
           'id', c.id, 'slug', c.slug, 'name', c.name, 'entity_type', c.entity_type,
           'is_verified', c.is_verified, 'province', c.province, 'sector__slug', s.slug,
           'sector__name', s.name, 'current_logo_id', c.current_logo_id,
           'current_logo__slug', l.slug, 'current_logo__title', l.title,
           'current_logo__preview', l.preview,
           'logo_count', (SELECT count(*) FROM directory_logo n WHERE n.company_id = c.id))"""

TABLES = f"""
CREATE TABLE directory_company_summary (
  company_id uuid PRIMARY KEY,
  summary text NOT NULL
);

CREATE FUNCTION directory_company_summaries_refresh(p_ids uuid[]) RETURNS void
  LANGUAGE plpgsql AS $$
BEGIN
  IF cardinality(p_ids) = 0 THEN
    RETURN;
  END IF;
  PERFORM 1 FROM directory_company c WHERE c.id = ANY (p_ids) ORDER BY c.id
    FOR NO KEY UPDATE;
  INSERT INTO directory_company_summary AS t (company_id, summary)
    SELECT c.id, {SUMMARY_OBJECT}::text
    FROM directory_company c
    LEFT JOIN directory_sector s ON s.id = c.sector_id
    LEFT JOIN directory_logo l ON l.id = c.current_logo_id
    WHERE c.id = ANY (p_ids)
    ORDER BY c.id
  ON CONFLICT (company_id) DO UPDATE SET summary = excluded.summary
    WHERE t.summary IS DISTINCT FROM excluded.summary;
END $$;

CREATE FUNCTION directory_company_summary_company_sync() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM directory_company_summaries_refresh(ARRAY(SELECT n.id FROM new_rows n));
  ELSIF TG_OP = 'DELETE' THEN
    DELETE FROM directory_company_summary WHERE company_id IN (SELECT o.id FROM old_rows o);
  ELSE
    -- Only companies whose summarised values changed.
    PERFORM directory_company_summaries_refresh(ARRAY(
      SELECT n.id FROM (
        SELECT id, slug, name, entity_type, is_verified, province, sector_id, current_logo_id
        FROM new_rows
        EXCEPT
        SELECT id, slug, name, entity_type, is_verified, province, sector_id, current_logo_id
        FROM old_rows) n));
  END IF;
  RETURN NULL;
END $$;

CREATE FUNCTION directory_company_summary_logo_sync() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  -- A logo counts in its company's summary, and shows there when it is the current one.
  IF TG_OP = 'INSERT' THEN
    PERFORM directory_company_summaries_refresh(ARRAY(SELECT n.company_id FROM new_rows n));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM directory_company_summaries_refresh(ARRAY(SELECT o.company_id FROM old_rows o));
  ELSE
    -- Most updates (a download's count) touch nothing a summary shows.
    PERFORM directory_company_summaries_refresh(ARRAY(
      SELECT changed.company_id FROM (
        (SELECT id, company_id, slug, title, preview FROM new_rows
         EXCEPT SELECT id, company_id, slug, title, preview FROM old_rows)
        UNION
        (SELECT id, company_id, slug, title, preview FROM old_rows
         EXCEPT SELECT id, company_id, slug, title, preview FROM new_rows)) changed));
  END IF;
  RETURN NULL;
END $$;

CREATE FUNCTION directory_company_summary_sector_sync() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  PERFORM directory_company_summaries_refresh(ARRAY(
    SELECT c.id FROM directory_company c WHERE c.sector_id IN (
      SELECT n.id FROM (SELECT id, slug, name FROM new_rows
                        EXCEPT SELECT id, slug, name FROM old_rows) n)));
  RETURN NULL;
END $$;

CREATE FUNCTION directory_company_summary_truncate() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE directory_company_summary;
  RETURN NULL;
END $$;

CREATE TRIGGER directory_company_summary_insert AFTER INSERT ON directory_company
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION directory_company_summary_company_sync();
CREATE TRIGGER directory_company_summary_update AFTER UPDATE ON directory_company
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION directory_company_summary_company_sync();
CREATE TRIGGER directory_company_summary_delete AFTER DELETE ON directory_company
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION directory_company_summary_company_sync();
CREATE TRIGGER directory_company_summary_truncate AFTER TRUNCATE ON directory_company
  FOR EACH STATEMENT EXECUTE FUNCTION directory_company_summary_truncate();
CREATE TRIGGER directory_company_summary_logo_insert AFTER INSERT ON directory_logo
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION directory_company_summary_logo_sync();
CREATE TRIGGER directory_company_summary_logo_update AFTER UPDATE ON directory_logo
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION directory_company_summary_logo_sync();
CREATE TRIGGER directory_company_summary_logo_delete AFTER DELETE ON directory_logo
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION directory_company_summary_logo_sync();
CREATE TRIGGER directory_company_summary_sector_update AFTER UPDATE ON directory_sector
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION directory_company_summary_sector_sync();

SELECT directory_company_summaries_refresh(ARRAY(SELECT id FROM directory_company));
"""

TABLES_REVERSE = """
DROP TRIGGER directory_company_summary_sector_update ON directory_sector;
DROP TRIGGER directory_company_summary_logo_delete ON directory_logo;
DROP TRIGGER directory_company_summary_logo_update ON directory_logo;
DROP TRIGGER directory_company_summary_logo_insert ON directory_logo;
DROP TRIGGER directory_company_summary_truncate ON directory_company;
DROP TRIGGER directory_company_summary_delete ON directory_company;
DROP TRIGGER directory_company_summary_update ON directory_company;
DROP TRIGGER directory_company_summary_insert ON directory_company;
DROP FUNCTION directory_company_summary_truncate();
DROP FUNCTION directory_company_summary_sector_sync();
DROP FUNCTION directory_company_summary_logo_sync();
DROP FUNCTION directory_company_summary_company_sync();
DROP FUNCTION directory_company_summaries_refresh(uuid[]);
DROP TABLE directory_company_summary;
"""

_BUILT = f"""  SELECT coalesce(json_agg({SUMMARY_OBJECT}
           ORDER BY p.position), '[]')::text
  INTO summaries
  FROM unnest(v_page) WITH ORDINALITY AS p(id, position)
  JOIN directory_company c ON c.id = p.id
  LEFT JOIN directory_sector s ON s.id = c.sector_id
  LEFT JOIN directory_logo l ON l.id = c.current_logo_id;"""
_READ = """  SELECT '[' || coalesce(string_agg(t.summary, ',' ORDER BY p.position), '') || ']'
  INTO summaries
  FROM unnest(v_page) WITH ORDINALITY AS p(id, position)
  JOIN directory_company_summary t ON t.company_id = p.id;"""
_PAGE_BEFORE = _0009.PAGE_WITH_POOL
assert _PAGE_BEFORE.count(_BUILT) == 1
PAGE = _PAGE_BEFORE.replace(_BUILT, _READ)


class Migration(migrations.Migration):
    dependencies = [("directory", "0009_company_page_seed_pool")]

    operations = [
        migrations.RunSQL(TABLES, TABLES_REVERSE),
        migrations.RunSQL(PAGE, _PAGE_BEFORE),
    ]
