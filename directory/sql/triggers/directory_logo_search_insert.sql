-- New logos' titles teach the lexicon, and their documents count in the gram counts.
CREATE OR REPLACE TRIGGER directory_logo_search_insert AFTER INSERT ON directory_logo
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION directory_logo_search_sync();
