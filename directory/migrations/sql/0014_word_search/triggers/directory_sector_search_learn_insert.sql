-- New sectors' names teach the lexicon.
CREATE OR REPLACE TRIGGER directory_sector_search_learn_insert AFTER INSERT ON directory_sector
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION directory_sector_search_learn();
