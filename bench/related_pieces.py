"""Where a related search's time goes, in one process (directory/search/related.py), and
how near the approximate index's related candidates come to exact ranking's.

Usage (from the project root, with the project venv, after bench/semantic.py has loaded
and embedded its database, `--phases http`):

    .venv/bin/python bench/related_pieces.py [--phases pieces,agreement] [--terms 200]

Phases, over the database and the index of bench/semantic.py (new terms, each embedded
for the first time):

* pieces: the parts of a related search timed one by one (the page's plain search, the
  statement that reads the version and the corrected term, the embedding, the two vector
  searches, the related statement), then the whole of it both ways, alternating on the
  same term: the page first and the search by meaning after it, and the two together
  (company_page_related: the embedding and the vector searches in a thread while
  PostgreSQL reads the page). That is the figure the thread stands on.
* agreement: for each search breadth of the index (--breadths), the share of the first
  ten candidates that exact ranking finds (related._close_enough over the whole matrix)
  that the index finds too, and the CPU of the two vector searches.

Output: a summary on stdout; the figures, the machine, its load and the date in
bench/results/related-pieces-<date>.json.
"""

import argparse
import dataclasses
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import django_env, free_port, manage, start_servers, write_results
from bench.semantic import DATABASE, INDEX_DIR, fresh_terms, loadavg, percentiles


def setup() -> None:
    url = start_servers(DATABASE)
    env = django_env(
        database_url=url, redis_db=6, port=free_port(), EMBEDDING_INDEX_DIR=str(INDEX_DIR)
    )
    manage(env, "migrate", "--noinput", "-v", "0")  # the checkout's SQL functions
    os.environ.update(env)
    import django

    django.setup()


def timed(work) -> tuple[float, object]:
    started = time.perf_counter()
    value = work()
    return 1000 * (time.perf_counter() - started), value


def phase_pieces(terms: list[str]) -> dict:
    from django.db import connection

    from directory.search import embeddings, related
    from directory.search import selectors as search

    related.warm_up()
    model = embeddings.backend()
    names = ("page", "version and corrected term", "embedding", "vector searches")
    names += ("related statement", "one after the other", "together")
    pieces: dict[str, list[float]] = {name: [] for name in names}
    for number, term in enumerate(terms):
        ms, (rows, _) = timed(
            lambda term=term: search.company_page(
                term=term, sector=None, province=None, offset=0, limit=20
            )
        )
        pieces["page"].append(ms)
        with connection.cursor() as cursor:
            ms, _ = timed(
                lambda term=term, cursor=cursor: cursor.execute(
                    "SELECT (SELECT max(updated_at) FROM directory_companyembedding),"
                    " directory_search_corrected(%s)",
                    (term,),
                )
            )
            version, corrected = cursor.fetchone()
        pieces["version and corrected term"].append(ms)
        state = related._state(model, version)
        text = related.query_text(term, corrected)
        ms, (vector,) = timed(lambda text=text: model.embed([text]))
        pieces["embedding"].append(ms)
        ms, keys = timed(
            lambda state=state, vector=vector: related._close_enough(state, vector, None)
        )
        pieces["vector searches"].append(ms)
        begun = related._Begun(corrected=corrected, text=text, keys=lambda keys=keys: keys)
        ms, _ = timed(lambda begun=begun, rows=rows: related._finish(begun, rows))
        pieces["related statement"].append(ms)

        def apart(term=term):
            begun = related._begin(term=term, sector=None, province=None, page=1)
            begun.keys()  # waits for the thread before the page is asked for
            rows, _ = search.company_page(term=term, sector=None, province=None, offset=0, limit=20)
            return related._finish(begun, rows)

        def together(term=term):
            return related.company_page_related(
                term=term, sector=None, province=None, page=1, offset=0, limit=20
            )[2]

        for name, work in sorted(
            (("one after the other", apart), ("together", together)),
            reverse=number % 2 == 1,  # alternating which goes first
        ):
            related._query_vector.cache_clear()  # each embeds the term
            ms, _ = timed(work)
            pieces[name].append(ms)
    result = {name: percentiles(values) for name, values in pieces.items()}
    for name, figures in result.items():
        print(f"    {name:28} mean {figures['mean']:6.2f}  p95 {figures['p95']:6.2f} ms")
    return result


def phase_agreement(terms: list[str], breadths: list[int]) -> dict:
    from django.db import connection

    from directory.search import embeddings, related

    model = embeddings.backend()
    with connection.cursor() as cursor:
        cursor.execute("SELECT max(updated_at) FROM directory_companyembedding")
        state = related._state(model, cursor.fetchone()[0])
        _, matrix = embeddings.vector_rows(
            cursor,
            "SELECT id, vector FROM directory_companyembedding WHERE model = %s ORDER BY id",
            (model.name,),
            model.dimension,
        )
    if state.index is None:
        raise SystemExit("no approximate index: run bench/semantic.py --phases http first")
    exact = dataclasses.replace(state, matrix=matrix, index=None)
    vectors = model.embed([related.query_text(term, term) for term in terms])
    truth = [related._close_enough(exact, vector, None)[:10] for vector in vectors]
    result = {}
    for breadth in breadths:
        state.index.expansion_search = breadth
        cpu = time.process_time()
        found = [related._close_enough(state, vector, None)[:10] for vector in vectors]
        cpu = 1000 * (time.process_time() - cpu) / len(vectors)
        share = statistics.fmean(
            len(set(got) & set(want)) / max(1, len(want))
            for got, want in zip(found, truth, strict=True)
        )
        result[breadth] = {"share_of_exact_first_ten": round(share, 3), "cpu_ms": round(cpu, 2)}
        print(f"    breadth {breadth}: {result[breadth]} (load {loadavg()})")
    state.index.expansion_search = embeddings.INDEX_EXPANSION_SEARCH
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--phases", default="pieces,agreement")
    parser.add_argument("--terms", type=int, default=200)
    parser.add_argument("--breadths", default="256,128,96,64")
    args = parser.parse_args()
    setup()
    # Terms bench/semantic.py's HTTP phase does not send (it takes the first ones).
    terms = fresh_terms(2000, seed=3)[-args.terms :]
    result: dict = {"load_before": loadavg(), "terms": args.terms}
    if "pieces" in args.phases:
        print(f"==> pieces of {args.terms} related searches (load {loadavg()})")
        result["pieces"] = phase_pieces(terms)
    if "agreement" in args.phases:
        print(f"==> the index against exact ranking (load {loadavg()})")
        breadths = [int(value) for value in args.breadths.split(",")]
        result["agreement"] = phase_agreement(terms, breadths)
    result["load_after"] = loadavg()
    write_results("related-pieces", result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
