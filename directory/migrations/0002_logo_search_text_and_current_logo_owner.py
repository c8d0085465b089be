from django.db import migrations

LOGO_SEARCH_TEXT = """
CREATE FUNCTION directory_logo_search_text() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_text := directory_names_text(
    NEW.title, ARRAY[(SELECT name FROM directory_company WHERE id = NEW.company_id)]::text[]);
  RETURN NEW;
END $$;
CREATE TRIGGER directory_logo_search_text
  BEFORE INSERT OR UPDATE OF title, company_id, search_text ON directory_logo
  FOR EACH ROW EXECUTE FUNCTION directory_logo_search_text();

CREATE FUNCTION directory_company_renamed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Naming search_text in the SET list makes the logo trigger recompute it.
  UPDATE directory_logo SET search_text = '' WHERE company_id = NEW.id;
  RETURN NULL;
END $$;
CREATE TRIGGER directory_company_renamed
  AFTER UPDATE OF name ON directory_company
  FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name)
  EXECUTE FUNCTION directory_company_renamed();
"""

LOGO_SEARCH_TEXT_REVERSE = """
DROP TRIGGER directory_company_renamed ON directory_company;
DROP FUNCTION directory_company_renamed();
DROP TRIGGER directory_logo_search_text ON directory_logo;
DROP FUNCTION directory_logo_search_text();
"""

# A company's current logo must be one of its own logos.
CURRENT_LOGO_OWNER = """
ALTER TABLE directory_company ADD CONSTRAINT directory_company_current_logo_owner
  FOREIGN KEY (current_logo_id, id) REFERENCES directory_logo (id, company_id)
  ON DELETE NO ACTION DEFERRABLE INITIALLY DEFERRED;
"""


class Migration(migrations.Migration):
    dependencies = [("directory", "0001_initial")]

    operations = [
        # Logo search matches the title and the company's name in one indexed column;
        # the company's name lives in another table, hence a trigger, not a generated column.
        migrations.RunSQL(LOGO_SEARCH_TEXT, LOGO_SEARCH_TEXT_REVERSE),
        migrations.RunSQL(
            CURRENT_LOGO_OWNER,
            "ALTER TABLE directory_company DROP CONSTRAINT directory_company_current_logo_owner;",
        ),
    ]
