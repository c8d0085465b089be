-- Changed titles teach the lexicon; changed documents, or logos no longer current or
-- current again, move the gram counts.
CREATE OR REPLACE TRIGGER directory_logo_search_update AFTER UPDATE ON directory_logo
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION directory_logo_search_sync();
