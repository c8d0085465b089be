-- Each company's full-text document (directory_company_fulltext_document), the
-- lexical half of related search. A table beside the company rather than a column:
-- the document reads the sector's name, and rows of its own keep the GIN index's
-- writes to the changes of the texts it holds; updates of a company's other columns
-- (its current logo, its timestamps) and of logos never touch it. Kept by the
-- directory_company_fulltext_* triggers. No foreign key: Django's test flush
-- truncates the catalogue tables without CASCADE; a trigger empties this one instead.
CREATE TABLE directory_company_fulltext (
  company_id uuid PRIMARY KEY,
  document tsvector NOT NULL
);
