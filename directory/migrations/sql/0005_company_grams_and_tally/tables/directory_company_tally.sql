CREATE TABLE directory_company_tally (
  sector_id bigint,
  province_fold text,
  size integer NOT NULL
);
