CREATE TABLE directory_company_summary (
  company_id uuid PRIMARY KEY,
  summary text NOT NULL
);
