CREATE TRIGGER directory_logo_grams_truncate AFTER TRUNCATE ON directory_logo
  FOR EACH STATEMENT EXECUTE FUNCTION directory_logo_grams_truncate();
