-- The patterns of the rows of rank classes 1 to `class` (up to 4: the gram counts know no
-- corrections) of a one-word search (directory_search_class_rank): each class's set
-- holds the sets of the classes before.
CREATE OR REPLACE FUNCTION directory_search_class_patterns(
  plan directory_search_plan, class integer) RETURNS text[]
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN CASE class WHEN 1 THEN plan.exact WHEN 2 THEN plan.whole WHEN 3 THEN plan.start
                    ELSE plan.inside END;
