-- The lexicon's words by their three-letter runs: a one-word term finds the words that
-- hold it (directory_search_posting_classes), as the documents' trigram index finds the
-- documents.
CREATE INDEX directory_search_word_trgm ON directory_search_word USING gin (word gin_trgm_ops);
