-- How many companies each (sector, province) pair has (NULL for none), so that a listing
-- without a term (directory_company_page) counts without visiting its rows. Kept by
-- directory_company_search_sync.
CREATE TABLE directory_company_tally (
  sector_id bigint,
  province_fold text,
  size integer NOT NULL
);
