CREATE TABLE directory_logo_gram_total (
  gram text PRIMARY KEY,
  size integer NOT NULL
);
