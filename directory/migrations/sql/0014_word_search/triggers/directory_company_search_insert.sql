-- New companies: the lexicon learns their words; the tally counts them.
CREATE OR REPLACE TRIGGER directory_company_search_insert AFTER INSERT ON directory_company
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION directory_company_search_sync();
