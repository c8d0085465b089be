-- Candidates two edits away: keys sharing many trigrams (directory_search_corrections).
CREATE INDEX directory_search_word_key ON directory_search_word USING gin (key gin_trgm_ops);
