-- Adds the corrections of the lexicon words `fresh`, just added to directory_search_word
-- and directory_search_variant, to the stored lists (directory_search_near): each new
-- word is measured against the candidates its lookups find (directory_search_lookups)
-- both ways, and goes in their lists as they go in its own, each when
-- directory_search_corrections would return it (directory_search_pair, and the other
-- word's lookups holding one of the stored variants, directory_search_stored). A word
-- whose lookups find the new word is found by the new word's too, unless it found it
-- through a deletion the variants do not store: two letters out of a key of eight or
-- more (two words whose keys are two edits apart need not find each other alike). Those
-- are kept in directory_search_reach, which this adds the new words' to last (so that
-- it holds only old words' while they are read), and the words holding one of the new
-- word's variants there are measured too.
-- One statement for all the new words: a bulk load learns thousands at once, and the
-- migration that created the lists filled them so. PL/pgSQL with a generic plan, so
-- that the statement is planned once per connection: planned for each call, it took
-- several times its run for one word. For many words a plan made for them joins the
-- candidates to the lexicon by hashing it, not by one probe each (SET LOCAL ends with
-- the function, which has a SET of its own).
CREATE OR REPLACE FUNCTION directory_search_near_add(fresh text[]) RETURNS void
  LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
BEGIN
  IF cardinality(fresh) > 100 THEN
    SET LOCAL plan_cache_mode = force_custom_plan;
  END IF;
  WITH new_words AS (
    SELECT s.word, s.key FROM directory_search_word s WHERE s.word = ANY (fresh)),
  -- Each new word and the old or new words its lookups find (`found`), and the old words
  -- whose lookups may find it where its own do not.
  pairs AS (
    SELECT c.found, c.word AS new_word, c.key AS new_key, s.word AS other, s.key AS other_key,
           s.word NOT IN (SELECT unnest(fresh)) AS old  -- a hashed set
    FROM (SELECT DISTINCT f.word, f.key, true AS found, v.word AS other
          FROM new_words f,
               unnest(directory_search_lookups(f.word COLLATE "default", f.key)) AS l(variant),
               directory_search_variant v
          WHERE v.variant = l.variant
          UNION ALL  -- `found` sets the two apart
          SELECT DISTINCT f.word, f.key, false, e.word
          FROM new_words f,
               unnest(directory_search_stored(f.word COLLATE "default", f.key)) AS n(variant),
               directory_search_reach e
          WHERE length(f.key) >= 8 AND e.variant = n.variant) c
         JOIN directory_search_word s ON s.word = c.other
    WHERE s.word <> c.word AND abs(length(s.word) - length(c.word)) <= 3
  )
  INSERT INTO directory_search_near (word, near, distance)
  SELECT r.word, r.near, r.distance
  FROM pairs,
       LATERAL (
         -- The other word in the new word's list, as directory_search_corrections finds it.
         SELECT pairs.new_word AS word, pairs.other AS near, p.distance
         FROM directory_search_pair(pairs.other, pairs.other_key,
                                    pairs.new_word COLLATE "default", pairs.new_key) p
         WHERE pairs.found AND length(pairs.new_word) >= 4 AND p.distance IS NOT NULL
         UNION ALL
         -- The new word in an old word's list, when the old word's lookups find it (a new
         -- word's list is its own: the line above).
         SELECT pairs.other, pairs.new_word, p.distance
         FROM directory_search_pair(pairs.new_word, pairs.new_key,
                                    pairs.other COLLATE "default", pairs.other_key) p
         -- Two words one edit apart, or two by spelling, always find each other; keys two
         -- edits apart may not, and only then are the old word's lookups built (CASE: not
         -- for every candidate; `old` apart, so that a new word's pairs are not measured).
         WHERE pairs.old AND CASE WHEN length(pairs.other) >= 4 AND p.distance IS NOT NULL
                    THEN p.distance < 2 OR p.spelled <= 2
                         OR directory_search_lookups(pairs.other COLLATE "default",
                                                     pairs.other_key)
                            && directory_search_stored(pairs.new_word COLLATE "default",
                                                       pairs.new_key)
                    ELSE false END) r
  ORDER BY r.word, r.near
  ON CONFLICT DO NOTHING;
  INSERT INTO directory_search_reach (variant, word)
  SELECT DISTINCT v.variant, s.word
  FROM directory_search_word s, unnest(directory_search_deletions(s.key, 2)) AS v(variant)
  WHERE s.word = ANY (fresh) AND length(s.key) >= 8
  ORDER BY v.variant, s.word;
END $$;
