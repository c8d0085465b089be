-- Each company's summary, as the search pages serve it (directory_company_page): the
-- company, its sector, its current logo and how many logos it has, as JSON text, so that
-- a page reads 20 rows instead of building them. Kept by the directory_company_summary_*
-- triggers. No foreign key: Django's test flush truncates the catalogue tables without
-- CASCADE; a trigger empties this one instead.
CREATE TABLE directory_company_summary (
  company_id uuid PRIMARY KEY,
  summary text NOT NULL
);
