-- Finds the documents holding any of a query's lexemes. fastupdate off, like the
-- project's other search indexes (directory/catalogue/models.py): every search would otherwise scan
-- the pending list, which only a vacuum or 4 MB of entries empties.
CREATE INDEX directory_company_fulltext_document ON directory_company_fulltext
  USING gin (document) WITH (fastupdate = off);
