"""What directory's 0001_initial runs beyond its models: the side objects read from their
files under directory/sql/, the composite foreign key of a company's current logo, and the
lexicon's names of kinds of business.

A module of the migrations package that Django does not take for a migration (its name
starts with an underscore); 0001_initial imports it, and no other code should.
"""

from pathlib import Path

APP = Path(__file__).resolve().parent.parent  # directory/

SIDE_OBJECTS = (
    "tables/directory_company_fulltext",
    "tables/directory_company_gram",
    "tables/directory_company_summary",
    "tables/directory_company_tally",
    "tables/directory_search_variant",
    "tables/directory_search_word",
    "types/directory_search_plan",
    "indexes/directory_company_fulltext_document",
    "indexes/directory_company_tally_key",
)

SIDE_OBJECTS_REVERSE = """
DROP TABLE directory_company_fulltext, directory_company_gram, directory_company_summary,
  directory_company_tally, directory_search_variant, directory_search_word CASCADE;
DROP TYPE directory_search_plan CASCADE;
"""

# A company's current logo must be one of its own logos.
CURRENT_LOGO_OWNER = """
ALTER TABLE directory_company ADD CONSTRAINT directory_company_current_logo_owner
  FOREIGN KEY (current_logo_id, id) REFERENCES directory_logo (id, company_id)
  ON DELETE NO ACTION DEFERRABLE INITIALLY DEFERRED;
"""


def learn_business_words(apps, schema_editor) -> None:
    """The names of kinds of business join the lexicon, for typo correction to pick from:
    "supermecado" is "supermercado" even when no company's text says it."""
    from directory.business_terms import catalogue_words

    with schema_editor.connection.cursor() as cursor:
        cursor.execute("SELECT directory_search_learn(%s, false)", [catalogue_words()])
