"""The request mix: distinct company- and logo-search paths built from the loaded data.

Every path in a pool is unique. Paths are first made distinct by meaning: the
folded term, the filters and the page differ, so even a cache keyed on the
normalised search would miss. When one kind runs out of such queries (there are
only so many common trigrams), the rest differ only in spelling (case, accents,
an explicit `page=1` or `pageSize=20`). The API folds those to the same search,
but a cache keyed on the request text would still miss. `Pool.spelling_only`
counts them.
"""

import random
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import urlencode

from bench.catalogue import strip_accents

COMPANY_PATH = "/v1/public/companies"
LOGO_PATH = "/v1/public/logos"

# Share of each kind of company search, and what it is.
COMPANY_MIX: dict[str, tuple[float, str]] = {
    "name": (0.14, "a company's full name, as spelled or in lower/upper/title case"),
    "alt_name": (0.04, "a full alternative name (acronym, brand, short or co-official form)"),
    "prefix": (0.14, "the first 4-8 characters of a name, as typed while searching"),
    "trigram": (0.14, "one of the 300 most common 3-letter substrings of names, page 1-3"),
    "unaccented": (0.07, "a name or 1-2 of its words holding accents or ñ, typed without them"),
    "accented": (0.03, "a name or 1-2 of its words holding accents or ñ, spelled with them"),
    "filter": (0.14, "empty q with sector (slug or name) and/or province filters, page 1-3"),
    "order": (0.06, "the words of a name in another order, without accents"),
    "starts": (0.06, "the first 3-5 letters of two or three words of a name"),
    "typo1": (0.07, "a name with one typing mistake in a word of 4-7 letters"),
    "typo2": (0.05, "a name with two typing mistakes in a word of 8 letters or more"),
    "punctuation": (0.06, "a name with punctuation: dots, hyphens, '&' dropped or typed otherwise"),
}
LOGO_MIX: dict[str, tuple[float, str]] = {
    "title": (0.40, "a logo title or its company's name, any case"),
    "prefix": (0.30, "the first 4-8 characters of a logo title"),
    "trigram": (0.30, "one of the 300 most common 3-letter substrings, page 1-3"),
}
COMMON_TRIGRAMS = 300
SEMANTIC_ATTEMPTS = 40
SPELLING_ATTEMPTS = 2000

_WORD = re.compile(r"[a-z]+")
_PUNCTUATION = re.compile(r"[.,&'-]")


def fold(text: str) -> str:
    """Roughly what directory_fold() does: lower case without accents."""
    return strip_accents(text).lower()


@dataclass
class Sample:
    """What the mix is built from, read from the benchmark database."""

    names: list[str]
    alternative_names: list[str]
    logo_titles: list[str]
    sectors: list[tuple[str, str]]  # (slug, name)
    provinces: list[str]


@dataclass(frozen=True)
class Query:
    kind: str
    path: str


@dataclass
class Pool:
    queries: list[Query] = field(default_factory=list)
    spelling_only: Counter = field(default_factory=Counter)

    def take(self, count: int) -> list[Query]:
        """The next `count` queries, never handed out twice."""
        taken, self.queries = self.queries[:count], self.queries[count:]
        return taken


def common_trigrams(texts: list[str], count: int = COMMON_TRIGRAMS) -> list[str]:
    """The letter-only trigrams found in the most texts."""
    frequency: Counter = Counter()
    for text in texts:
        grams = set()
        for word in _WORD.findall(fold(text)):
            grams.update(word[index : index + 3] for index in range(len(word) - 2))
        frequency.update(grams)
    return [gram for gram, _ in frequency.most_common(count)]


class MixBuilder:
    def __init__(self, sample: Sample, rng: random.Random) -> None:
        self.sample = sample
        self.rng = rng
        self.trigrams = common_trigrams(sample.names)
        self.accented = [name for name in sample.names if name != strip_accents(name)]
        self.punctuated = [
            name for name in sample.names if _PUNCTUATION.search(name) or " y " in name
        ]

    # -- spellings --------------------------------------------------------------------

    def typed(self, text: str) -> str:
        """How someone might type a term: as spelled, lower case, upper case or title case."""
        return self.rng.choices(
            [text, text.lower(), text.upper(), text.title()], [0.45, 0.40, 0.05, 0.10]
        )[0]

    def page(self) -> int:
        return self.rng.choices([1, 2, 3], [0.7, 0.2, 0.1])[0]

    def fragment(self, name: str) -> str:
        """The whole name, or one or two of its words starting at one holding an accent."""
        words = name.split()
        marked = [index for index, word in enumerate(words) if word != strip_accents(word)]
        if self.rng.random() < 0.5 or not marked:
            return name
        start = self.rng.choice(marked)
        return " ".join(words[start : start + self.rng.randint(1, 2)])

    def words(self, name: str, shortest: int = 1) -> list[str]:
        return [word for word in strip_accents(name).lower().split() if len(word) >= shortest]

    def mistyped(self, word: str, edits: int) -> str:
        """`word` with `edits` typing mistakes: a letter dropped, doubled, changed, or two
        neighbours swapped."""
        letters = "abcdefghijklmnopqrstuvwxyz"
        for _ in range(edits):
            at = self.rng.randrange(1, len(word) - 1)
            kind = self.rng.choice(["drop", "double", "change", "swap"])
            if kind == "drop":
                word = word[:at] + word[at + 1 :]
            elif kind == "double":
                word = word[:at] + word[at] + word[at:]
            elif kind == "change":
                word = word[:at] + self.rng.choice(letters.replace(word[at], "")) + word[at + 1 :]
            else:
                word = word[: at - 1] + word[at] + word[at - 1] + word[at + 1 :]
        return word

    def with_typo(self, edits: int, lengths: range) -> str:
        """A name, lower case without accents, one word of `lengths` letters mistyped."""
        while True:
            words = self.words(self.rng.choice(self.sample.names))
            candidates = [index for index, word in enumerate(words) if len(word) in lengths]
            if candidates:
                index = self.rng.choice(candidates)
                words[index] = self.mistyped(words[index], edits)
                return " ".join(words)

    # -- company search ----------------------------------------------------------------

    def company_params(self, kind: str) -> dict[str, str | int]:
        rng, sample = self.rng, self.sample
        if kind == "name":
            return {"q": self.typed(rng.choice(sample.names))}
        if kind == "alt_name":
            return {"q": self.typed(rng.choice(sample.alternative_names))}
        if kind == "prefix":
            return {"q": self.typed(rng.choice(sample.names)[: rng.randint(4, 8)].strip())}
        if kind == "trigram":
            gram = rng.choice(self.trigrams)
            return {"q": rng.choices([gram, gram.upper(), gram.title()], [0.8, 0.1, 0.1])[0]}
        if kind == "unaccented":
            text = strip_accents(self.fragment(rng.choice(self.accented)))
            return {"q": text.lower() if rng.random() < 0.8 else text}
        if kind == "accented":
            return {"q": self.typed(self.fragment(rng.choice(self.accented)))}
        if kind == "order":
            while len(words := self.words(rng.choice(sample.names), shortest=2)) < 2:
                pass
            rng.shuffle(words)
            return {"q": " ".join(words)}
        if kind == "starts":
            while len(words := self.words(rng.choice(sample.names), shortest=4)) < 2:
                pass
            chosen = rng.sample(words, min(len(words), rng.randint(2, 3)))
            return {"q": " ".join(word[: rng.randint(3, 5)] for word in chosen)}
        if kind == "typo1":
            return {"q": self.with_typo(1, range(4, 8))}
        if kind == "typo2":
            return {"q": self.with_typo(2, range(8, 30))}
        if kind == "punctuation":
            name = rng.choice(self.punctuated)
            spelling = rng.choice(["dropped", "spaced", "ampersand"])
            if spelling == "dropped":
                text = _PUNCTUATION.sub("", name)
            elif spelling == "spaced":
                text = _PUNCTUATION.sub(" ", name)
            else:
                text = name.replace(" y ", " & ")
            return {"q": self.typed(text)}
        if kind == "filter":
            params: dict[str, str | int] = {}
            which = rng.choices(["sector", "province", "both"], [0.4, 0.3, 0.3])[0]
            if which in ("sector", "both"):
                slug, name = rng.choice(sample.sectors)
                params["sector"] = rng.choices([slug, name, fold(name)], [0.5, 0.3, 0.2])[0]
            if which in ("province", "both"):
                province = rng.choice(sample.provinces)
                params["province"] = province if rng.random() < 0.6 else fold(province)
            return params
        raise ValueError(kind)

    # -- logo search -------------------------------------------------------------------

    def logo_params(self, kind: str) -> dict[str, str | int]:
        rng = self.rng
        if kind == "title":
            source = rng.choice([self.sample.logo_titles, self.sample.names])
            return {"q": self.typed(rng.choice(source))}
        if kind == "prefix":
            return {"q": self.typed(rng.choice(self.sample.logo_titles)[: rng.randint(4, 8)])}
        if kind == "trigram":
            return self.company_params("trigram")
        raise ValueError(kind)

    # -- pools -------------------------------------------------------------------------

    def pool(
        self,
        endpoint: str,
        mix: dict[str, tuple[float, str]],
        size: int,
        make: Callable[[str], dict[str, str | int]],
        *,
        up_to: bool = False,
    ) -> Pool:
        """`size` distinct queries in the proportions of `mix`, shuffled; with `up_to`, as
        many as a kind has when it has fewer, instead of an error."""
        pool = Pool()
        seen_meanings: set[tuple] = set()
        seen_paths: set[str] = set()
        for kind, (share, _) in mix.items():
            for _ in range(round(size * share)):
                try:
                    query, spelling_only = self._distinct(
                        endpoint, kind, make, seen_meanings, seen_paths
                    )
                except RuntimeError:
                    if not up_to:
                        raise
                    break
                pool.queries.append(query)
                pool.spelling_only[kind] += spelling_only
        self.rng.shuffle(pool.queries)
        return pool

    def _distinct(
        self,
        endpoint: str,
        kind: str,
        make: Callable[[str], dict[str, str | int]],
        seen_meanings: set[tuple],
        seen_paths: set[str],
    ) -> tuple[Query, bool]:
        for attempt in range(SEMANTIC_ATTEMPTS + SPELLING_ATTEMPTS):
            params = make(kind)
            if not str(params.get("q", "x")).strip():
                continue
            paged = kind in ("trigram", "filter")
            page = self.page() if paged else 1
            meaning = (
                fold(str(params.get("q", ""))).strip(),
                fold(str(params.get("sector", ""))),
                fold(str(params.get("province", ""))),
                page,
            )
            # Equivalent spellings of the same page, for text variety.
            if page > 1 or self.rng.random() < 0.25:
                params["page"] = page
            if self.rng.random() < 0.15:
                params["pageSize"] = 20
            path = f"{endpoint}?{urlencode(params)}"
            if path in seen_paths:
                continue
            if meaning not in seen_meanings or attempt >= SEMANTIC_ATTEMPTS:
                spelling_only = meaning in seen_meanings
                seen_meanings.add(meaning)
                seen_paths.add(path)
                return Query(kind, path), spelling_only
        raise RuntimeError(f"cannot make another distinct {kind!r} query; ask for fewer")

    def company_pool(self, size: int) -> Pool:
        return self.pool(COMPANY_PATH, COMPANY_MIX, size, self.company_params)

    def logo_pool(self, size: int) -> Pool:
        return self.pool(LOGO_PATH, LOGO_MIX, size, self.logo_params)
