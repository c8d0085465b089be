CREATE TRIGGER directory_logo_grams_update AFTER UPDATE ON directory_logo
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION directory_logo_grams_sync();
