-- The lexicon (directory_search_learn) learns the words of new and renamed sectors:
-- related search corrects a term against them before embedding it.
-- Planned once per connection, with what it calls (plan_cache_mode: docs/sql.md).
CREATE OR REPLACE FUNCTION directory_sector_search_learn() RETURNS trigger
  LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM directory_search_learn(ARRAY(SELECT n.name FROM new_rows n), false);
  ELSE
    PERFORM directory_search_learn(ARRAY(
      SELECT n.name FROM new_rows n EXCEPT SELECT o.name FROM old_rows o), false);
  END IF;
  RETURN NULL;
END $$;
