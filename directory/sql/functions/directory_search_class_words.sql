-- The typo corrections, as words, that rank classes 1 to `class` of a one-word search
-- match besides their patterns (directory_search_class_patterns): a document holds one
-- when string_to_array(search_doc, ' ') does, which the index on a document's words finds.
CREATE OR REPLACE FUNCTION directory_search_class_words(
  plan directory_search_plan, class integer) RETURNS text[]
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN CASE class WHEN 5 THEN plan.near_words WHEN 6 THEN plan.near_words || plan.far_words
                    ELSE '{}' END;
