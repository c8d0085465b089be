-- One changed company row: +1 for its new values, -1 for its old ones.
CREATE TYPE directory_company_change AS (
  sign integer, id uuid, search_text text, name_fold text, sector_id bigint, province_fold text
);
