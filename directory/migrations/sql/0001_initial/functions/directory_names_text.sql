CREATE FUNCTION directory_names_text(name text, other_names text[]) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN chr(31) || coalesce(directory_fold(name), '') || chr(31)
    || coalesce(directory_fold(array_to_string(other_names, chr(31))) || chr(31), '');
