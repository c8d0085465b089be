-- New logos' titles teach the lexicon.
CREATE OR REPLACE TRIGGER directory_logo_search_learn_insert AFTER INSERT ON directory_logo
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION directory_logo_search_learn();
