-- Which required word of `plan` the trigram index should narrow a search by: the `nth`
-- of the words with the fewest alternatives (a word corrected for typos may have nine),
-- the longest first (ties: the earlier), whose patterns are the rarest. NULL past the
-- last.
CREATE OR REPLACE FUNCTION directory_search_lead(plan directory_search_plan, nth integer)
  RETURNS integer
  LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
  RETURN (SELECT i FROM generate_subscripts(plan.inside, 1) AS i
          ORDER BY num_nonnulls(VARIADIC plan.match[i:i]), length(plan.inside[i][1]) DESC, i
          OFFSET nth - 1 LIMIT 1);
END $$;
