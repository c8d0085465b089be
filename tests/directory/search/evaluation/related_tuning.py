"""A third set of related-search queries, written later by someone who had seen neither
the search code nor the TEST queries (of DEV only the first dozen, for the form): the set
the related rules are tuned on besides DEV, so that TEST stays unseen. Same form and
kinds as related.py; the queries are in related_tuning.json."""

import json
from pathlib import Path

from tests.directory.search.evaluation.related import Query, queries

_DATA = json.loads(Path(__file__).with_name("related_tuning.json").read_text(encoding="utf-8"))

TUNE: tuple[Query, ...] = queries(_DATA["tune"])
