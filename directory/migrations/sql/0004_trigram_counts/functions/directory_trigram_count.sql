CREATE FUNCTION directory_trigram_count(value text) RETURNS integer
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN coalesce(array_length(show_trgm(directory_fold(value)), 1), 0);
