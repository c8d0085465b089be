"""The kinds set (related_kinds.json): every company of a kind, asked for by its name.

Sixteen kinds of business with three or four companies each, whose names do not say what
they do, and queries in Spanish and English that each ask for one kind: a good list names
every company of it (recall), puts one in the first three (hit@3) and little else
(precision). The decoys' names hold a query's word ("Hoteles Mirasierra", "Deportes
Peñalara") but they are of another kind; with `unrelated_companies()` they make the
distractor variant, a catalogue as a real one is, where the kind's companies must be
found among thousands of others. Same Query and Company forms as related.py and
related_catalogue.py; the split is in the file.
"""

import json
import random
from pathlib import Path

from bench import catalogue as bench_catalogue
from tests.directory.search.evaluation.related import Query, queries
from tests.directory.search.evaluation.related_catalogue import Company

_DATA = json.loads((Path(__file__).with_name("related_kinds.json")).read_text())


def _queries(half: int) -> tuple[Query, ...]:
    """Alternately DEV (0) and TEST (1) within each kind, in the order written."""
    seen: dict[str, int] = {}
    chosen = []
    for row in _DATA["queries"]:
        group = row["expected"][0]
        seen[group] = seen.get(group, -1) + 1
        if seen[group] % 2 == half:
            chosen.append(row)
    return queries(chosen)


COMPANIES: tuple[Company, ...] = tuple(Company(**row) for row in _DATA["companies"])
DECOYS: tuple[Company, ...] = tuple(Company(**row) for row in _DATA["decoys"])
DEV = _queries(0)
TEST = _queries(1)
UNRELATED_GROUP = "unrelated"


def unrelated_companies() -> tuple[tuple[Company, ...], dict[str, str]]:
    """The distractor variant's thousands of companies of kinds no query asks for, named as
    bench/catalogue.py names them, and the sectors (slug: name) they use. Same every time."""
    spec = _DATA["unrelated"]
    rng = random.Random(spec["seed"])
    names = bench_catalogue.NameMaker(rng)
    sectors = dict(bench_catalogue.SECTORS)
    types = sorted(spec["types"])
    made: list[Company] = []
    taken: set[str] = set()
    while len(made) < spec["count"]:
        kind = rng.choice(types)
        shape = rng.random()
        if shape < 0.4:
            name = f"{kind} {names.surname()}"
        elif shape < 0.6:
            name = f"{kind} {rng.choice(bench_catalogue.PLACES)}"
        elif shape < 0.8:
            name = f"{names.brand()} {kind}"
        else:
            name = f"{kind} {rng.choice(bench_catalogue.REGIONAL)}"
        name = f"{name} {rng.choice(bench_catalogue.SUFFIXES)}".strip()
        slug = bench_catalogue.slugify(name)
        if slug in taken:
            continue
        taken.add(slug)
        province = names.province()
        about = f"{name}: {spec['types'][kind]}, en {province}."
        made.append(
            Company(slug, name, bench_catalogue.TYPES[kind], province, about, UNRELATED_GROUP)
        )
    return tuple(made), sectors
