"""Search and related search: the page functions over the SQL engine of directory/sql/
(selectors.py, docs/search.md), related companies by meaning (related.py) with the
company vectors (embeddings.py, kept in models.py) and the business thesaurus
(business_terms.py, its data in data/business_kinds.toml); the endpoints
GET /companies and GET /logos (views.py, serializers.py).
"""
