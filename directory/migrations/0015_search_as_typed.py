"""The search plan carries the term as written and the legal form typed at its end
(directory_search_plan's `legal` and `spelling`), so that names as typed rank first of those
that match alike.
Written to hold on a database that 0001 built from the type's file already changed."""

from django.db import migrations

TYPED = """
DO $$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_attribute
                 WHERE attrelid = 'directory_search_plan'::regclass AND attname = 'legal') THEN
    ALTER TYPE directory_search_plan ADD ATTRIBUTE legal text;
  END IF;
  IF NOT EXISTS (SELECT FROM pg_attribute
                 WHERE attrelid = 'directory_search_plan'::regclass AND attname = 'spelling') THEN
    ALTER TYPE directory_search_plan ADD ATTRIBUTE spelling text;
  END IF;
END $$;
"""
UNTYPED = """
ALTER TYPE directory_search_plan DROP ATTRIBUTE IF EXISTS spelling,
  DROP ATTRIBUTE IF EXISTS legal;
"""


class Migration(migrations.Migration):
    dependencies = [("directory", "0014_company_renamed_in_search_sync")]

    operations = [migrations.RunSQL(TYPED, UNTYPED)]
