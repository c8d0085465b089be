"""A thesaurus of kinds of business, for expanding "related companies" queries.

The table itself is data, directory/search/data/business_kinds.toml (what it holds and how it
was written is said at its top): each kind has a plain Spanish and a plain English word
and the other words and phrases a person in Spain might type for it ("fonda", "posada"
and "hostatgeria" are hotels). When a query names a kind, it is expanded with that kind's
plain words and its first synonyms before it is embedded (directory/search/related.py), so
that a rare or regional name lands near the companies whose descriptions use the
common word. Matching folds case and accents.
"""

import re
import tomllib
import unicodedata
from pathlib import Path

KINDS_FILE = Path(__file__).resolve().parent / "data" / "business_kinds.toml"


def kinds_load(path: Path = KINDS_FILE) -> tuple[tuple[tuple[str, str], tuple[str, ...]], ...]:
    """Every kind of the file as ((Spanish, English), (other names, ...)), in its order."""
    with path.open("rb") as file:
        table = tomllib.load(file)
    return tuple(
        ((kind["es"], kind["en"]), tuple(kind["others"]))
        for group in table["group"]
        for kind in group["kind"]
    )


BUSINESS_KINDS = kinds_load()

_WORD = re.compile(r"[a-z0-9]+")


def words_of(text: str) -> list[str]:
    """The words of `text` as the thesaurus matches them: lower case, accents folded."""
    decomposed = unicodedata.normalize("NFKD", text.lower())
    return _WORD.findall("".join(c for c in decomposed if not unicodedata.combining(c)))


def _singular(word: str) -> str:
    """The word without a Spanish or English plural ending ("hoteles": "hotel")."""
    if len(word) > 4 and word.endswith("es") and word[-3] not in "aeiou":
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


_KINDS: dict[tuple[str, ...], tuple[str, ...]] = {
    tuple(words_of(name)): plain for plain, others in BUSINESS_KINDS for name in (*plain, *others)
}
_OTHERS: dict[tuple[str, ...], tuple[str, ...]] = dict(BUSINESS_KINDS)
_LONGEST = max(len(name) for name in _KINDS)


def business_words(text: str, synonyms: int = 8) -> list[str]:
    """The words of the kinds of business `text` names, each once, longest names first:
    a kind's plain words (Spanish, English), then up to `synonyms` of its other names.
    "fonda en Sevilla" gives ["hotel", "hostal", "posada", ...]."""
    words = words_of(text)
    found: list[str] = []
    start = 0
    while start < len(words):
        for length in range(min(_LONGEST, len(words) - start), 0, -1):
            name = words[start : start + length]
            # As written, else in the singular: "hoteles" names what "hotel" does.
            plain = _KINDS.get(tuple(name)) or _KINDS.get(tuple(map(_singular, name)))
            if plain:
                others = _OTHERS[plain][:synonyms]
                found.extend(word for word in (*plain, *others) if word not in found)
                start += length
                break
        else:
            start += 1
    return found


_VOCABULARY = frozenset(word for name in _KINDS for word in name)
_LETTERS = "abcdefghijklmnopqrstuvwxyz"


def _one_edit(word: str) -> set[str]:
    """Every spelling one edit from `word`: a letter dropped, added, replaced, or two
    neighbours swapped."""
    splits = [(word[:i], word[i:]) for i in range(len(word) + 1)]
    return {
        *(a + b[1:] for a, b in splits if b),
        *(a + b[1] + b[0] + b[2:] for a, b in splits if len(b) > 1),
        *(a + c + b[1:] for a, b in splits if b for c in _LETTERS),
        *(a + c + b for a, b in splits for c in _LETTERS),
    }


def thesaurus_spelling(text: str) -> str:
    """`text` with each word of five letters or more that the thesaurus lacks replaced by
    the one thesaurus word a typing mistake away, when there is exactly one ("bodgea":
    "bodega"). For the words the catalogue's own correction leaves as typed."""
    words = []
    for word in words_of(text):
        near = set() if len(word) < 5 or word in _VOCABULARY else _one_edit(word) & _VOCABULARY
        words.append(near.pop() if len(near) == 1 else word)
    return " ".join(words)


def catalogue_words() -> list[str]:
    """Every word of the table, for typo correction to pick from (the initial
    migration adds them to directory_search_word)."""
    return sorted({word for name in _KINDS for word in name})
