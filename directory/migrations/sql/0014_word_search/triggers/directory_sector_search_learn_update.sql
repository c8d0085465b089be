-- Renamed sectors teach the lexicon.
CREATE OR REPLACE TRIGGER directory_sector_search_learn_update AFTER UPDATE ON directory_sector
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION directory_sector_search_learn();
