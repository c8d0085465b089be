"""The queries of bench/findability.py: what people type to find one company (or logo) of
the benchmark catalogue (bench/catalogue.py), made from the catalogue and a seed alone.

Each kind of query (KINDS) is made from a company or a logo drawn at random. A query is
*ambiguous*, and left out (and counted), when what it was made from does not single out
its company: its name, compared folded (case, accents and punctuation ignored, `&` read
as `y`), is also the name or an alternative name of another company; for the kinds that
change the words, when another company's words fit the query as well (the same words in
any order; words that start with the typed starts); for the typing mistakes, when the
mistyped name is another company's name. Noise is random letters that should find
nothing, left out when it lies inside a word of the catalogue or within the typing budget
of one (`budget`), as a search should find those. Queries go to the DEV or the TEST half
by a hash of the company they were made from (of the text, for noise), so that every
query about one company lands in the same half and a query keeps its half whatever else
changes.
"""

import hashlib
import random
import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from itertools import permutations
from pathlib import Path

from bench.catalogue import LEGAL_SUFFIX, Rows, strip_accents
from bench.mix import fold

KEYBOARD = Path(__file__).resolve().parent / "data" / "keyboard-es.txt"

KINDS: dict[str, str] = {
    "name": "a company's full name, as spelled or in lower/upper/title case",
    "order": "the words of a name (legal form dropped) in another order, lower case, no accents",
    "starts": "the first 3-5 letters of each word of 3 letters or more of a name (2 words or more)",
    "unaccented": "a full name holding accents or ñ, typed without them",
    "punctuation": "a name with its dots, hyphens or ' y ' dropped, spaced or typed as '&'",
    "typo1": "a name, lower case without accents, one typing mistake in a word of 4-7 letters",
    "typo2": "a name, lower case without accents, two typing mistakes in a word of 8 or more",
    "alt_name": "a full alternative name (acronym, brand, short or co-official form)",
    "logo": "a logo title (current, past with its years, or a product's), searched as logos",
}
NOISE = "noise"
MISTAKES = ("drop", "double", "swap", "neighbour")
# Candidates drawn per query wanted: the ambiguous ones are left out (at 1,000,000
# companies, two word starts in three fit another company too).
OVERDRAW = 5
ATTEMPTS_PER_QUERY = 40

_PUNCTUATION = re.compile(r"[.,&'-]")
_WORD = re.compile(r"[a-z0-9]+")
_NOT_KEY = re.compile(r"[^a-z0-9]+")


# -- text ---------------------------------------------------------------------------------


def name_key(text: str) -> str:
    """What tells two names apart: letters and digits, folded, '&' read as 'y', nothing
    else ('Talleres León, S.L.' and 'talleres leon sl' are one name)."""
    return _NOT_KEY.sub("", fold(text).replace("&", " y "))


def words(name: str, shortest: int) -> list[str]:
    """The folded words of a name without its legal form, `shortest` letters or more."""
    return [
        word for word in _WORD.findall(fold(LEGAL_SUFFIX.sub("", name))) if len(word) >= shortest
    ]


def order_key(name: str) -> str:
    return " ".join(sorted(words(name, 2)))


def budget(length: int) -> int:
    """How many typing mistakes search allows in a typed word of `length` letters (issue
    27, directory_search_budget): one from 4 letters, two from 8."""
    return 2 if length >= 8 else 1 if length >= 4 else 0


def half_of(source: str) -> str:
    """DEV or TEST, by a hash of what the query was made from."""
    return "dev" if hashlib.sha256(source.encode()).digest()[0] % 2 == 0 else "test"


# -- typing mistakes ----------------------------------------------------------------------


def keyboard_neighbours(path: Path = KEYBOARD) -> dict[str, str]:
    """Each letter key's neighbours on the keyboard of `path` (bench/data/keyboard-es.txt)."""
    keys: list[tuple[str, float, int]] = []
    rows = [line.split() for line in path.read_text().splitlines() if line and line[0] != "#"]
    for row, (shift, letters) in enumerate(rows):
        keys.extend((letter, float(shift) + column, row) for column, letter in enumerate(letters))
    return {
        letter: "".join(
            other
            for other, x2, row2 in keys
            if (row2 == row and abs(x2 - x) == 1) or (abs(row2 - row) == 1 and abs(x2 - x) < 1)
        )
        for letter, x, row in keys
    }


def distance(a: str, b: str) -> int:
    """Edits between two words, a swap of neighbouring letters counting as one (optimal
    string alignment)."""
    previous2: list[int] = []
    previous = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        current = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = a[i - 1] != b[j - 1]
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                current[j] = min(current[j], previous2[j - 2] + 1)
        previous2, previous = previous, current
    return previous[len(b)]


class Typist:
    """Typing mistakes as people make them: a letter dropped, doubled, swapped with the
    next one, or replaced by a neighbouring key; anywhere in the word."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        # Folded words hold a-z only: ñ would be read as n, another mistake than typed.
        self.neighbours = {
            letter: "".join(key for key in keys if "a" <= key <= "z")
            for letter, keys in keyboard_neighbours().items()
        }

    def mistake(self, word: str, kind: str) -> str | None:
        """`word` with one mistake of `kind`, or None when the word cannot take it there."""
        at = self.rng.randrange(len(word))
        if kind == "drop":
            return word[:at] + word[at + 1 :]
        if kind == "double":
            return word[: at + 1] + word[at:]
        if kind == "swap":
            at = self.rng.randrange(len(word) - 1)
            if word[at] == word[at + 1]:
                return None
            return word[:at] + word[at + 1] + word[at] + word[at + 2 :]
        if kind == "neighbour":
            keys = self.neighbours.get(word[at], "")
            return word[:at] + self.rng.choice(keys) + word[at + 1 :] if keys else None
        raise ValueError(kind)

    def mistyped(self, word: str, mistakes: int) -> str:
        """`word` with `mistakes` mistakes of random kinds, exactly that many edits away."""
        while True:
            typed: str | None = word
            for _ in range(mistakes):
                typed = self.mistake(typed, self.rng.choice(MISTAKES)) if typed else None
            if typed and distance(word, typed) == mistakes:
                return typed


# -- the catalogue --------------------------------------------------------------------------


@dataclass(frozen=True)
class Company:
    slug: str
    name: str
    alternative_names: tuple[str, ...]


@dataclass(frozen=True)
class Logo:
    id: str
    title: str
    company: int  # index in Catalogue.companies


@dataclass(frozen=True)
class Query:
    kind: str
    text: str
    expected: str  # the company's slug, the logo's id; "" for noise
    label: str  # the name or title it was made from, for reports
    half: str
    # False for a typing mistake that leaves the word too short for the budget its
    # mistakes need: 'tala' typed 'tal', 'penalver' typed 'peanver'.
    in_budget: bool = True


MANY = -1


class Owners:
    """Who holds each key: an index, or MANY when more than one does."""

    def __init__(self) -> None:
        self.owner: dict[str, int] = {}

    def add(self, key: str, index: int) -> None:
        if self.owner.setdefault(key, index) != index:
            self.owner[key] = MANY

    def others(self, key: str, index: int) -> bool:
        """Whether anything but `index` holds `key`."""
        return self.owner.get(key, index) != index


class Catalogue:
    """The companies and logos of bench/catalogue.py's rows, and who holds which names."""

    def __init__(self, rows: Rows) -> None:
        position = {row[0]: index for index, row in enumerate(rows.companies)}
        self.companies = [Company(row[1], row[2], tuple(row[3])) for row in rows.companies]
        self.logos = [Logo(str(row[0]), row[2], position[row[3]]) for row in rows.logos]
        self.names, self.orders, self.titles = Owners(), Owners(), Owners()
        for index, company in enumerate(self.companies):
            for name in (company.name, *company.alternative_names):
                self.names.add(name_key(name), index)
                self.orders.add(order_key(name), index)
        for index, logo in enumerate(self.logos):
            self.titles.add(name_key(logo.title), index)

    def vocabulary(self) -> set[str]:
        """The folded words of every name and alternative name."""
        return {
            word
            for company in self.companies
            for name in (company.name, *company.alternative_names)
            for word in _WORD.findall(fold(name))
        }

    def companies_starting(self, starts: set[str]) -> dict[str, set[int]]:
        """For each start, the companies with a word (`words` of this module, 3 letters or
        more) that starts with it."""
        found: dict[str, set[int]] = {start: set() for start in starts}
        lengths = sorted({len(start) for start in starts})
        for index, company in enumerate(self.companies):
            for word in words(company.name, 3):
                for length in lengths:
                    if word[:length] in found:
                        found[word[:length]].add(index)
        return found


def fits_starts(name: str, starts: list[str]) -> bool:
    """Whether each start begins a different word of `name`."""
    name_words = words(name, 3)
    if len(name_words) < len(starts):
        return False
    return any(
        all(word.startswith(start) for word, start in zip(chosen, starts, strict=False))
        for chosen in permutations(name_words, len(starts))
    )


# -- queries --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Candidate:
    text: str
    index: int  # the company's, or the logo's for logo queries
    starts: tuple[str, ...] = ()
    in_budget: bool = True


class QueryMaker:
    def __init__(self, catalogue: Catalogue, seed: int) -> None:
        self.catalogue = catalogue
        self.seed = seed
        self.accented = [
            index
            for index, company in enumerate(catalogue.companies)
            if company.name != strip_accents(company.name)
        ]
        self.punctuated = [
            index
            for index, company in enumerate(catalogue.companies)
            if _PUNCTUATION.search(company.name) or " y " in company.name
        ]
        self.with_alternative = [
            index for index, company in enumerate(catalogue.companies) if company.alternative_names
        ]

    def rng(self, kind: str) -> random.Random:
        """A source of its own per kind: asking for more of one kind changes no other."""
        return random.Random(f"findability-{self.seed}-{kind}")

    @staticmethod
    def typed(rng: random.Random, text: str) -> str:
        """As spelled, lower case, upper case or title case."""
        return rng.choices([text, text.lower(), text.upper(), text.title()], [45, 40, 5, 10])[0]

    def candidate(self, kind: str, rng: random.Random, typist: Typist) -> Candidate | None:
        """One query of `kind` from a company or logo drawn at random, or None when the one
        drawn cannot make it."""
        companies = self.catalogue.companies
        if kind == "logo":
            index = rng.randrange(len(self.catalogue.logos))
            title = self.catalogue.logos[index].title
            return Candidate(title if rng.random() < 0.5 else title.lower(), index)
        pool = {
            "unaccented": self.accented,
            "punctuation": self.punctuated,
            "alt_name": self.with_alternative,
        }.get(kind)
        index = rng.choice(pool) if pool else rng.randrange(len(companies))
        name = companies[index].name
        if kind == "name":
            return Candidate(self.typed(rng, name), index)
        if kind == "alt_name":
            return Candidate(self.typed(rng, rng.choice(companies[index].alternative_names)), index)
        if kind == "unaccented":
            text = strip_accents(name)
            return Candidate(text.lower() if rng.random() < 0.8 else text, index)
        if kind == "punctuation":
            spellings = ["dropped", "spaced"] + (["ampersand"] if " y " in name else [])
            spelling = rng.choice(spellings)
            if spelling == "dropped":
                text = _PUNCTUATION.sub("", name)
            elif spelling == "spaced":
                text = " ".join(_PUNCTUATION.sub(" ", name).split())
            else:
                text = name.replace(" y ", " & ")
            return Candidate(self.typed(rng, text), index) if text != name else None
        if kind == "order":
            shuffled = words(name, 2)
            if len(set(shuffled)) < 2:
                return None
            original = list(shuffled)
            while shuffled == original:
                rng.shuffle(shuffled)
            return Candidate(" ".join(shuffled), index)
        if kind == "starts":
            starts = tuple(word[: rng.randint(3, 5)] for word in words(name, 3))
            return Candidate(" ".join(starts), index, starts) if len(starts) >= 2 else None
        if kind in ("typo1", "typo2"):
            mistakes, lengths = (1, range(4, 8)) if kind == "typo1" else (2, range(8, 99))
            typed = fold(name).split()
            at = [i for i, word in enumerate(typed) if len(word) in lengths and word.isalpha()]
            if not at:
                return None
            chosen = rng.choice(at)
            typed[chosen] = typist.mistyped(typed[chosen], mistakes)
            return Candidate(
                " ".join(typed), index, in_budget=budget(len(typed[chosen])) >= mistakes
            )
        raise ValueError(kind)

    def candidates(self, kind: str, count: int) -> list[Candidate]:
        """Up to `count` candidates of `kind`, no two alike once folded."""
        rng = self.rng(kind)
        typist = Typist(rng)
        made: list[Candidate] = []
        seen: set[str] = set()
        for _ in range(count * ATTEMPTS_PER_QUERY):
            if len(made) == count:
                break
            candidate = self.candidate(kind, rng, typist)
            if candidate and candidate.text.strip() and name_key(candidate.text) not in seen:
                seen.add(name_key(candidate.text))
                made.append(candidate)
        return made

    def ambiguity(self, kind: str, candidates: list[Candidate]) -> Callable[[Candidate], bool]:
        """Whether a candidate of `kind` does not single out what it was made from."""
        catalogue = self.catalogue
        companies = catalogue.companies
        if kind == "logo":

            def logo(candidate: Candidate) -> bool:
                key = name_key(candidate.text)
                owner = catalogue.logos[candidate.index].company
                return catalogue.titles.others(key, candidate.index) or catalogue.names.others(
                    key, owner
                )

            return logo
        if kind == "starts":
            having = catalogue.companies_starting({s for c in candidates for s in c.starts})

            def starts(candidate: Candidate) -> bool:
                same = set.intersection(*(having[start] for start in candidate.starts))
                return any(
                    fits_starts(companies[other].name, list(candidate.starts))
                    for other in same - {candidate.index}
                )

            return starts

        def named(candidate: Candidate) -> bool:
            company = companies[candidate.index]
            # An alternative name is typed whole, only its case changed.
            made_from = candidate.text if kind == "alt_name" else company.name
            if catalogue.names.others(name_key(made_from), candidate.index):
                return True
            if kind == "order":
                return catalogue.orders.others(order_key(company.name), candidate.index)
            # A mistyped or respelled name that is another company's name.
            return catalogue.names.others(name_key(candidate.text), candidate.index)

        return named

    def kind(self, kind: str, count: int) -> tuple[list[Query], int]:
        """`count` unambiguous queries of `kind` (fewer if the catalogue runs out), and how
        many ambiguous ones were drawn and left out on the way."""
        candidates = self.candidates(kind, count * OVERDRAW)
        ambiguous = self.ambiguity(kind, candidates)
        queries: list[Query] = []
        left_out = 0
        for candidate in candidates:
            if len(queries) == count:
                break
            if ambiguous(candidate):
                left_out += 1
                continue
            queries.append(self.query(kind, candidate))
        return queries, left_out

    def query(self, kind: str, candidate: Candidate) -> Query:
        if kind == "logo":
            logo = self.catalogue.logos[candidate.index]
            source = self.catalogue.companies[logo.company].slug
            return Query(kind, candidate.text, logo.id, logo.title, half_of(source))
        company = self.catalogue.companies[candidate.index]
        half = half_of(company.slug)
        return Query(kind, candidate.text, company.slug, company.name, half, candidate.in_budget)

    def noise(self, count: int) -> tuple[list[Query], int]:
        """`count` strings of 5-9 random letters that search should not find, and how many
        were drawn and left out because it should (`resembling`)."""
        rng = self.rng(NOISE)
        drawn: dict[str, None] = {}
        while len(drawn) < count * OVERDRAW:
            letters = "abcdefghijklmnopqrstuvwxyz"
            drawn["".join(rng.choice(letters) for _ in range(rng.randint(5, 9)))] = None
        near = resembling(list(drawn), self.catalogue.vocabulary())
        queries: list[Query] = []
        left_out = 0
        for text in drawn:
            if len(queries) == count:
                break
            if text in near:
                left_out += 1
                continue
            queries.append(Query(NOISE, text, "", "", half_of(text)))
        return queries, left_out


def deletions(word: str, most: int) -> set[str]:
    """`word` with up to `most` letters deleted."""
    found = frontier = {word}
    for _ in range(most):
        frontier = {text[:at] + text[at + 1 :] for text in frontier for at in range(len(text))}
        found = found | frontier
    return found


def resembling(texts: list[str], vocabulary: Iterable[str]) -> set[str]:
    """The texts that lie inside a word of `vocabulary`, or within the typing budget of one
    (by their length): words within k edits share a string of each with up to k deleted."""
    vocabulary = list(vocabulary)
    joined = "\n".join(vocabulary)
    near = {text for text in texts if text in joined}
    variants: dict[str, set[str]] = defaultdict(set)
    for text in texts:
        for variant in deletions(text, budget(len(text))):
            variants[variant].add(text)
    most = max(budget(len(text)) for text in texts)
    lengths = range(min(map(len, texts)) - most, max(map(len, texts)) + most + 1)
    for word in vocabulary:
        if len(word) not in lengths:
            continue
        for variant in deletions(word, most):
            for text in variants.get(variant, ()):
                if distance(text, word) <= budget(len(text)):
                    near.add(text)
    return near


def make_queries(
    catalogue: Catalogue, seed: int, per_kind: int, noise: int
) -> Iterator[tuple[str, list[Query], int]]:
    """(kind, queries, ambiguous left out) for every kind, then noise."""
    maker = QueryMaker(catalogue, seed)
    for kind in KINDS:
        queries, ambiguous = maker.kind(kind, per_kind)
        yield kind, queries, ambiguous
    yield NOISE, *maker.noise(noise)
