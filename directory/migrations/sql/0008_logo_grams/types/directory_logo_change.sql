-- One changed logo row: +1 for its new values, -1 for its old ones.
CREATE TYPE directory_logo_change AS (
  sign integer, id uuid, search_text text, title_fold text, is_current boolean
);
