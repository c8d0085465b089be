CREATE TRIGGER directory_logo_grams_insert AFTER INSERT ON directory_logo
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION directory_logo_grams_sync();
