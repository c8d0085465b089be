-- The lexicon (directory_search_learn) learns the words of new and retitled logos, as named. A
-- download updates its logo row but no title: the EXCEPT leaves nothing, and nothing is
-- written.
CREATE OR REPLACE FUNCTION directory_logo_search_learn() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM directory_search_learn(ARRAY(SELECT n.title FROM new_rows n), true);
  ELSE
    PERFORM directory_search_learn(ARRAY(
      SELECT n.title FROM new_rows n EXCEPT SELECT o.title FROM old_rows o), true);
  END IF;
  RETURN NULL;
END $$;
