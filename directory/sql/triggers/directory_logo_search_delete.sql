-- Deleted logos leave the gram counts.
CREATE OR REPLACE TRIGGER directory_logo_search_delete AFTER DELETE ON directory_logo
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION directory_logo_search_sync();
