-- The patterns of the rows of rank classes 1 to `class` of a one-word search
-- (directory_search_class_rank): each class's set holds the sets of the classes before.
-- The corrections of classes 5 and 6 are words (directory_search_class_words).
CREATE OR REPLACE FUNCTION directory_search_class_patterns(
  plan directory_search_plan, class integer) RETURNS text[]
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN CASE class WHEN 1 THEN plan.exact WHEN 2 THEN plan.whole WHEN 3 THEN plan.start
                    WHEN 4 THEN plan.inside ELSE plan.loose END;
