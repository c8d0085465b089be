-- How the matches of a search of `kind` for `plan`, one required word of four letters or
-- more (as typed, and written out if it is an abbreviation) without filters, fall into
-- rank classes by document length and current or not, read from
-- directory_search_posting: the lexicon's words that hold the word, and its
-- corrections, each ranked as directory_search_rank ranks a document holding only it,
-- and each document taking the best rank of its words, as directory_search_rank does.
-- Also those words (`words`) and their ranks, which name the rows of a class's window.
-- The documents with a name that is exactly the term (`exact`, rank 0) are the word's
-- postings marked as a whole name, or, for a term with other words (a connective, a
-- single letter: "centro m"), those holding all its words (the index on a document's
-- words) whose name is the term. The shape of directory_search_gram_classes, for
-- directory_search to read each class's window by length. Every word of a document is
-- in the lexicon but those of one or two letters, which cannot hold one of four.
CREATE OR REPLACE FUNCTION directory_search_posting_classes(
  kind text, plan directory_search_plan, OUT exact uuid[], OUT words text[],
  OUT word_ranks integer[],
  OUT ranks integer[], OUT currents boolean[], OUT lengths integer[], OUT counts bigint[])
  LANGUAGE plpgsql STABLE
  SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  name text := btrim(plan.exact[1], '%| ');
BEGIN
  IF strpos(name, ' ') = 0 THEN
    exact := ARRAY(SELECT p.id FROM directory_search_posting p
                   WHERE p.kind = directory_search_posting_classes.kind AND p.word = name
                     AND p.named);
  ELSE
    exact := ARRAY(SELECT r.id FROM directory_search_source(kind, NULL, NULL) r
                   WHERE string_to_array(r.search_doc, ' ') @> string_to_array(name, ' ')
                     AND r.search_doc LIKE ANY (plan.exact));
  END IF;
  SELECT array_agg(w.word), array_agg(directory_search_rank(' ' || w.word || ' ', plan))
  INTO words, word_ranks
  FROM (SELECT s.word FROM directory_search_word s WHERE s.word LIKE ANY (plan.inside)
        UNION
        SELECT unnest(plan.near_words || plan.far_words) COLLATE "C") AS w(word)
  WHERE w.word IS NOT NULL;
  SELECT coalesce(array_agg(c.rank), '{}'), coalesce(array_agg(c.is_current), '{}'),
         coalesce(array_agg(c.length), '{}'), coalesce(array_agg(c.count), '{}')
  INTO ranks, currents, lengths, counts
  FROM (SELECT d.rank, d.is_current, d.length, count(*) AS count
        FROM (SELECT CASE WHEN p.id = ANY (exact) THEN 0 ELSE min(w.rank) END AS rank,
                     bool_or(p.is_current) AS is_current, max(p.length) AS length
              FROM unnest(words, word_ranks) AS w(word, rank)
              JOIN directory_search_posting p
                ON p.kind = directory_search_posting_classes.kind AND p.word = w.word
              GROUP BY p.id) d
        GROUP BY d.rank, d.is_current, d.length) c;
END $$;
