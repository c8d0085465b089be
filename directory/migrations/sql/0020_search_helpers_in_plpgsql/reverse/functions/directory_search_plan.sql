-- How a search term is read (docs/search.md). Its words, normalised as names are
-- (directory_search_normalize), must each match; connectives (de, la, y...), legal
-- forms and single letters only when the term has nothing else. A word matches
-- anywhere inside a word of a name (one of one or two letters: the start of a word),
-- and an abbreviation also as the word it stands for. A word listed in `correct` may
-- also match the catalogue's words within typing distance (directory_search_corrections,
-- the eight nearest); one listed in `split` that has no correction one edit away, read
-- as two words written together, those two (directory_search_splits).
CREATE OR REPLACE FUNCTION directory_search_plan(term text, correct text[], split text[])
  RETURNS directory_search_plan
  LANGUAGE plpgsql STABLE PARALLEL SAFE AS $$
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
  -- Per required word, each kind's patterns as the text of an array (rows of unequal
  -- length, which one array cannot hold until directory_search_rows pads them).
  wholes text[] := '{}';
  starts text[] := '{}';
  insides text[] := '{}';
  nears text[] := '{}';
  fars text[] := '{}';
  width integer := 1;
  plan directory_search_plan;
BEGIN
  IF typed IS NULL THEN
    plan.corrected := '';
    RETURN plan;
  END IF;
  -- A legal form is what normalising drops at the end of a name.
  required := ARRAY(
    SELECT i FROM generate_subscripts(typed, 1) AS i
    WHERE length(typed[i]) > 1
      AND typed[i] NOT IN ('de', 'del', 'la', 'las', 'el', 'los', 'les', 'els', 'lo', 'y', 'o',
                           'en', 'da', 'do', 'das', 'dos', 'the', 'of')
      AND directory_search_normalize('x ' || typed[i]) <> ' x '
    ORDER BY i);
  IF cardinality(required) = 0 THEN
    required := ARRAY(SELECT generate_subscripts(typed, 1));
  END IF;
  FOREACH word_at IN ARRAY required LOOP
    spellings := ARRAY(SELECT DISTINCT s FROM unnest(ARRAY[typed[word_at], written[word_at]]) AS s);
    near := '{}';
    far := '{}';
    IF typed[word_at] = ANY (correct) THEN
      SELECT coalesce(array_agg(c.word ORDER BY c.n) FILTER (WHERE c.distance <= 1), '{}'),
             coalesce(array_agg(c.word ORDER BY c.n) FILTER (WHERE c.distance = 2), '{}')
      INTO near, far
      FROM directory_search_corrections(typed[word_at]) WITH ORDINALITY AS c(word, distance, n)
      WHERE c.n <= 8;
      -- What related search embeds takes a correction only when it is as near as spelt
      -- as by sound: "send" sounds one edit from "seeds", "new" like "news", but each is
      -- a word of its own.
      IF cardinality(near || far) > 0 AND NOT EXISTS (
           SELECT 1 FROM directory_search_word s WHERE s.word = typed[word_at])
         AND directory_search_distance((near || far)[1], typed[word_at])
             <= directory_search_budget(typed[word_at]) THEN
        corrected[word_at] := (near || far)[1];
      END IF;
    END IF;
    -- Read as two words only when no word of the catalogue is one typo away: a split's
    -- short halves are common, and their patterns the costliest to look up.
    IF typed[word_at] = ANY (split) AND cardinality(near) = 0 THEN
      near := near || ARRAY(SELECT directory_search_splits(typed[word_at]));
    END IF;
    wholes := wholes || ARRAY(SELECT '% ' || s || ' %' FROM unnest(spellings) AS s)::text;
    starts := starts || ARRAY(SELECT '% ' || s || '%' FROM unnest(spellings) AS s)::text;
    insides := insides || ARRAY(
      SELECT CASE WHEN length(s) <= 2 THEN '% ' ELSE '%' END || s || '%'
      FROM unnest(spellings) AS s)::text;
    -- A correction is a word of the catalogue: it matches where a word starts with it
    -- (its plural, say), not inside any word, which for a short one would be anywhere.
    nears := nears || ARRAY(SELECT '% ' || s || '%' FROM unnest(near) AS s)::text;
    fars := fars || ARRAY(SELECT '% ' || s || '%' FROM unnest(far) AS s)::text;
    width := greatest(width, cardinality(spellings), cardinality(near), cardinality(far));
  END LOOP;
  plan.exact := ARRAY['%| ' || array_to_string(written, ' ') || ' |%'];
  plan.whole := directory_search_rows(wholes, width);
  plan.start := directory_search_rows(starts, width);
  plan.inside := directory_search_rows(insides, width);
  plan.near := directory_search_rows(nears, width);
  plan.far := directory_search_rows(fars, width);
  plan.match := directory_search_rows(ARRAY(
    SELECT (insides[n]::text[] || nears[n]::text[] || fars[n]::text[])::text
    FROM generate_subscripts(insides, 1) AS n ORDER BY n), 3 * width);
  plan.words := ARRAY(SELECT typed[i] FROM unnest(required) AS i);
  plan.corrected := array_to_string(corrected, ' ');
  RETURN plan;
END $$;
