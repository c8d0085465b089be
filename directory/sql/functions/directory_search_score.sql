-- How the `word`th required word of `plan` matches `doc`: 0 whole, 1 at a word's start, 34
-- inside, 2048 a near correction, 2304 a far one, 0 past the last word. Six words' partial
-- matches stay below one far correction's 256, six far ones' below one more corrected word.
CREATE OR REPLACE FUNCTION directory_search_score(
  doc text, plan directory_search_plan, word integer) RETURNS integer
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN CASE WHEN word > cardinality(plan.words) OR doc LIKE ANY (plan.whole[word:word]) THEN 0
              WHEN doc LIKE ANY (plan.start[word:word]) THEN 1
              WHEN doc LIKE ANY (plan.inside[word:word]) THEN 34
              WHEN doc LIKE ANY (plan.near[word:word]) THEN 2048
              WHEN doc LIKE ANY (plan.far[word:word]) THEN 2304
              ELSE 0 END;
