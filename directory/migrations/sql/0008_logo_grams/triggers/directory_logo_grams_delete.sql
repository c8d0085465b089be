CREATE TRIGGER directory_logo_grams_delete AFTER DELETE ON directory_logo
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION directory_logo_grams_sync();
