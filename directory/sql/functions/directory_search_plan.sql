-- How a search term is read (docs/search.md). Its words, normalised as names are, must each
-- match; connectives (de, la, y...), legal forms and single letters only when nothing else.
-- A word matches inside a word of a name (of one or two letters: at a word's start), an
-- abbreviation also as its word, and every word the catalogue's words within typing
-- distance (directory_search_corrections): the other words tell which is right. With
-- `split`, the second reading of a term that found nothing, a word with no correction one
-- edit away also matches as two words typed together, and one of three letters or fewer
-- the words sounding the same (else it matches much already). Loops of plain expressions
-- (no query) and a query per word, under generic plans: left to choose, PostgreSQL planned
-- it for every word (a short word makes a custom plan look cheaper), a fifth of the whole.
CREATE OR REPLACE FUNCTION directory_search_plan(term text, split boolean)
  RETURNS directory_search_plan
  LANGUAGE plpgsql STABLE PARALLEL SAFE
  SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  normal text := btrim(directory_search_normalize(replace(term, '|', ' ')));
  typed text[] := string_to_array(nullif(normal, ''), ' ');
  written text[] := string_to_array(btrim(directory_search_expand(' ' || normal || ' ')), ' ');
  corrected text[] := typed;
  required integer[];
  word_at integer;
  spellings text[];
  near text[];
  far text[];
  near_word text[];  -- the same corrections as words
  far_word text[];
  split_patterns text[];
  spelling text;
  nearest text;            -- the correction related search takes, and its spelt distance
  nearest_spelled integer;
  whole text[];      -- one word's patterns of each kind
  start text[];
  inside text[];
  -- Per required word, each kind's patterns as an array's text, for directory_search_rows.
  wholes text[] := '{}';
  starts text[] := '{}';
  insides text[] := '{}';
  nears text[] := '{}';
  fars text[] := '{}';
  near_words text[] := '{}';
  far_words text[] := '{}';
  looses text[] := '{}';
  matches text[] := '{}';
  width integer := 1;
  left_out text;     -- the letters and digits of the term that normalising left out
  squeezed text;     -- the term normalised, its letters and digits
  known boolean;     -- whether the lexicon holds the word as typed
  plan directory_search_plan;
BEGIN
  IF typed IS NULL THEN
    plan.corrected := '';
    RETURN plan;
  END IF;
  -- A legal form is what normalising drops at the end of a name.
  required := '{}';
  FOR i IN 1..cardinality(typed) LOOP
    IF length(typed[i]) > 1
       AND typed[i] <> ALL ('{de,del,la,las,el,los,les,els,lo,y,o,en,da,do,das,dos,the,of}')
       AND directory_search_normalize('x ' || typed[i]) <> ' x ' THEN
      required := required || i;
    END IF;
  END LOOP;
  IF cardinality(required) = 0 THEN
    required := ARRAY(SELECT generate_subscripts(typed, 1));
  END IF;
  plan.words := '{}';
  FOREACH word_at IN ARRAY required LOOP
    -- As typed and as written out, in text order.
    spellings := CASE WHEN written[word_at] = typed[word_at] THEN ARRAY[typed[word_at]]
                      ELSE ARRAY[least(typed[word_at], written[word_at]),
                                 greatest(typed[word_at], written[word_at])] END;
    -- Corrections: words of names and titles (those in documents), not holding the word as
    -- typed (it matches them already); a lexicon word's stored (one index read). Related
    -- search takes the nearest by sound for a word the catalogue lacks, if as near as spelt
    -- ("send" sounds one edit from "seeds", "new" like "news": words of their own).
    known := EXISTS (SELECT FROM directory_search_word s WHERE s.word = typed[word_at]);
    SELECT coalesce(array_agg(c.word) FILTER (WHERE c.distance <= 1 AND u.usable), '{}'),
           coalesce(array_agg(c.word) FILTER (WHERE c.distance = 2 AND u.usable), '{}'),
           (array_agg(c.word ORDER BY c.sounded, c.spelled, c.word)
              FILTER (WHERE c.sounded <= directory_search_budget(typed[word_at])))[1],
           (array_agg(c.spelled ORDER BY c.sounded, c.spelled, c.word)
              FILTER (WHERE c.sounded <= directory_search_budget(typed[word_at])))[1]
    INTO near_word, far_word, nearest, nearest_spelled
    FROM (SELECT n.near, n.distance, NULL, NULL, s.named
          FROM directory_search_near n JOIN directory_search_word s ON s.word = n.near
          WHERE n.word = typed[word_at] AND known AND length(typed[word_at]) >= 4
          UNION ALL
          SELECT * FROM directory_search_corrections(typed[word_at])
          WHERE NOT (known AND length(typed[word_at]) >= 4)
            AND (length(typed[word_at]) >= 4 OR split))
         AS c(word, distance, sounded, spelled, named),
         LATERAL (SELECT c.named AND strpos(c.word, typed[word_at]) = 0) AS u(usable);
    IF nearest_spelled <= directory_search_budget(typed[word_at]) AND NOT known THEN
      corrected[word_at] := nearest;
    END IF;
    -- Read as two words only when no word of the catalogue is one typo away: a split's
    -- short halves are common, and their patterns the costliest to look up.
    split_patterns := CASE WHEN split AND cardinality(near_word) = 0 THEN ARRAY(
                        SELECT '% ' || p.pair || '%'
                        FROM directory_search_splits(typed[word_at]) AS p(pair)) ELSE '{}' END;
    near := split_patterns;
    FOREACH spelling IN ARRAY near_word LOOP
      near := near || ('% ' || spelling || ' %');
    END LOOP;
    far := '{}';
    FOREACH spelling IN ARRAY far_word LOOP
      far := far || ('% ' || spelling || ' %');
    END LOOP;
    whole := '{}';
    start := '{}';
    inside := '{}';
    FOREACH spelling IN ARRAY spellings LOOP
      whole := whole || ('% ' || spelling || ' %');
      -- "asociacion" starts or holds no name "asoc" does not, and costs more to look up.
      CONTINUE WHEN spelling > spellings[1] AND starts_with(spelling, spellings[1])
                    AND length(spellings[1]) >= 3;
      start := start || ('% ' || spelling || '%');
      inside := inside
                || (CASE WHEN length(spelling) <= 2 THEN '% ' ELSE '%' END || spelling || '%');
    END LOOP;
    wholes := wholes || whole::text;
    starts := starts || start::text;
    insides := insides || inside::text;
    nears := nears || near::text;
    fars := fars || far::text;
    near_words := near_words || near_word::text;
    far_words := far_words || far_word::text;
    looses := looses || (inside || split_patterns)::text;
    matches := matches || (inside || near || far)::text;
    plan.words := plan.words || typed[word_at];
    width := greatest(width, cardinality(spellings), cardinality(near), cardinality(far));
  END LOOP;
  plan.exact := ARRAY['%| ' || array_to_string(written, ' ') || ' |%'];
  plan.whole := directory_search_rows(wholes, width);
  plan.start := directory_search_rows(starts, width);
  plan.inside := directory_search_rows(insides, width);
  plan.near := directory_search_rows(nears, width);
  plan.far := directory_search_rows(fars, width);
  plan.near_words := directory_search_rows(near_words, width);
  plan.far_words := directory_search_rows(far_words, width);
  plan.loose := directory_search_rows(looses, 2 * width);
  plan.match := directory_search_rows(matches, 3 * width);
  plan.corrected := array_to_string(corrected, ' ');
  -- What normalising left out at the end of the term's letters and digits, when that is
  -- all it changed, is a legal form, which names then end with ("slu": "... S.L.U.").
  plan.spelling := regexp_replace(directory_fold(term), '[^a-z0-9]+', '', 'g');
  squeezed := replace(normal, ' ', '');
  IF starts_with(plan.spelling, squeezed) THEN
    left_out := nullif(substr(plan.spelling, length(squeezed) + 1), '');
    plan.legal := '[^a-z0-9]' || regexp_replace(left_out, '(.)', '\1[^a-z0-9]*', 'g') || '$';
  END IF;
  RETURN plan;
END $$;
