-- The rows of `kind` within the filters (directory_search_source) that match `plan`, a
-- term of several words (few rows), for directory_search to rank. The trigram index
-- finds them by the two words that match the fewest (directory_search_lead) as typed,
-- and the index on a document's words as corrected: a correction is a whole word, all of
-- a word's found in one probe, where the trigram index took a scan for each (a word of
-- four letters can have 36).
-- A generic plan: the plan is always the same (the trigram index by the two lead
-- words), but its estimates differ with the patterns, and planning it for every term
-- cost about as much as running it.
CREATE OR REPLACE FUNCTION directory_search_found(
  kind text, plan directory_search_plan, sectors bigint[], province_folded text)
  RETURNS uuid[]
  LANGUAGE plpgsql STABLE
  SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  leads integer[] := directory_search_lead(kind, plan);
  lead integer := leads[1];
  second integer := leads[2];
BEGIN
  RETURN ARRAY(
    SELECT r.id FROM directory_search_source(kind, sectors, province_folded) r
    WHERE (r.search_doc LIKE ANY (plan.loose[lead:lead])
           OR string_to_array(r.search_doc, ' ')
              && (plan.near_words[lead:lead] || plan.far_words[lead:lead]))
      AND (r.search_doc LIKE ANY (plan.loose[second:second])
           OR string_to_array(r.search_doc, ' ')
              && (plan.near_words[second:second] || plan.far_words[second:second]))
      AND directory_search_matches(r.search_doc, plan));
END $$;
