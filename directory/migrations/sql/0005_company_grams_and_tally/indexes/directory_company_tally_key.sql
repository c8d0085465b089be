CREATE UNIQUE INDEX directory_company_tally_key
  ON directory_company_tally (sector_id, province_fold) NULLS NOT DISTINCT;
