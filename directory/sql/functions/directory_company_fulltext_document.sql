-- A company's full-text document: names (weight A), sector name (B) and the first
-- 1,000 characters of "about" (D), the part that says what the company does and the
-- same part its embedding reads (directory/search/embeddings.py, ABOUT_MAX_CHARS).
-- PL/pgSQL, as directory_fold (concat_ws and array_to_string are STABLE).
CREATE OR REPLACE FUNCTION directory_company_fulltext_document(
  name text, alternative_names text[], sector text, about text) RETURNS tsvector
  LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
  RETURN setweight(public.directory_fulltext(concat_ws(' ', name, array_to_string(alternative_names, ' '))), 'A')
    || setweight(public.directory_fulltext(sector), 'B')
    || setweight(public.directory_fulltext(left(about, 1000)), 'D');
END $$;
