"""bench/findability.py makes its queries and scores the API's answers as it says: typing
mistakes of the kind asked, ambiguous queries left out, a stable DEV/TEST split, hits
counted on what the API lists. A few hundred companies; nothing here is timed."""

import random
import uuid
from dataclasses import replace

import pytest

from bench import catalogue
from bench.findability import ask
from bench.findability_queries import (
    KINDS,
    MISTAKES,
    NOISE,
    Candidate,
    Catalogue,
    QueryMaker,
    Typist,
    budget,
    distance,
    half_of,
    keyboard_neighbours,
    make_queries,
    name_key,
    resembling,
    words,
)
from directory.catalogue.models import Company, Logo

SEED = 5
COMPANIES = 300


@pytest.fixture(scope="module")
def rows() -> catalogue.Rows:
    return catalogue.generate(COMPANIES, SEED)


def with_company(rows: catalogue.Rows, name: str, alternative: list[str]) -> catalogue.Rows:
    """`rows` and one more company, a copy of the first one with another name and slug."""
    first = rows.companies[0]
    added = (uuid.uuid4(), "added-company", name, alternative, *first[4:])
    return replace(rows, companies=[*rows.companies, added])


def one_edit_of_kind(word: str, typed: str, kind: str, neighbours: dict[str, str]) -> bool:
    if kind == "drop":
        return any(word[:at] + word[at + 1 :] == typed for at in range(len(word)))
    if kind == "double":
        return any(word[: at + 1] + word[at:] == typed for at in range(len(word)))
    if kind == "swap":
        return any(
            word[:at] + word[at + 1] + word[at] + word[at + 2 :] == typed
            for at in range(len(word) - 1)
        )
    changed = [at for at in range(len(word)) if len(typed) == len(word) and typed[at] != word[at]]
    return len(changed) == 1 and typed[changed[0]] in neighbours[word[changed[0]]]


def test_it_takes_neighbouring_keys_from_the_spanish_keyboard():
    neighbours = keyboard_neighbours()

    assert set(neighbours["a"]) == set("qwsz")
    assert set(neighbours["g"]) == set("tyfhvb")
    assert set(neighbours["l"]) == set("opkñ")
    assert set(neighbours["m"]) == set("jkn")


@pytest.mark.parametrize("kind", MISTAKES)
def test_it_makes_exactly_one_typing_mistake_of_the_kind_asked(kind):
    typist = Typist(random.Random(kind))
    neighbours = keyboard_neighbours()
    made = 0
    for word in ["panaderia", "leon", "marquez", "hijos", "asociados", "zubizarreta"] * 30:
        typed = typist.mistake(word, kind)
        if typed is None:  # a swap of two equal letters changes nothing
            continue
        made += 1
        assert distance(word, typed) == 1, (word, typed)
        assert one_edit_of_kind(word, typed, kind, neighbours), (word, typed)
    assert made > 150


@pytest.mark.parametrize("mistakes", [1, 2])
def test_it_mistypes_a_word_exactly_as_many_edits_away_as_asked(mistakes):
    typist = Typist(random.Random(mistakes))

    typed = [typist.mistyped("construcciones", mistakes) for _ in range(300)]

    assert {distance("construcciones", word) for word in typed} == {mistakes}
    assert len(set(typed)) > 50 * mistakes  # anywhere in the word, of every kind


def test_it_counts_a_swap_of_neighbouring_letters_as_one_edit():
    assert distance("ortega", "ortgea") == 1
    assert distance("nunez", "nunze") == 1
    assert distance("hijos", "hjos") == 1
    assert distance("marquez", "marquuez") == 1
    assert distance("asociados", "aociaos") == 2


def test_it_takes_noise_that_search_should_find_for_no_noise():
    vocabulary = ["bodegas", "panaderia", "zubizarreta"]
    texts = ["bodegs", "odega", "zubizaretta", "zusisarretax", "qzxwv", "panaxxxria", "bdgas"]

    # Inside a word, or within one edit (5-7 letters) or two (8 or more) of one.
    assert resembling(texts, vocabulary) == {"bodegs", "odega", "zubizaretta"}


def test_it_compares_names_folded():
    assert name_key("Talleres León, S.L.") == name_key("talleres leon sl")
    assert name_key("García & López") == name_key("Garcia y Lopez")
    assert name_key("Talleres León S.A.") != name_key("Talleres León S.L.")


def test_it_leaves_out_a_name_another_company_shares_folded(rows):
    shared = with_company(rows, catalogue.strip_accents(rows.companies[0][2]).upper(), [])
    maker = QueryMaker(Catalogue(shared), SEED)
    first, last = Candidate("x", 0), Candidate("x", COMPANIES)

    assert maker.ambiguity("name", [first])(first)
    assert maker.ambiguity("typo1", [last])(last)
    assert not QueryMaker(Catalogue(rows), SEED).ambiguity("name", [first])(first)


def test_it_leaves_out_a_name_that_is_another_company_s_alternative_name(rows):
    shared = with_company(rows, "Ñotaveli Distribuciones", [rows.companies[1][2]])
    maker = QueryMaker(Catalogue(shared), SEED)
    second = Candidate(rows.companies[1][2], 1)

    assert maker.ambiguity("name", [second])(second)


def test_it_leaves_out_a_typing_mistake_that_makes_another_company_s_name(rows):
    shared = with_company(rows, "Talleres León Márquez", [])
    shared = with_company(shared, "Talleres Peón Márquez", [])
    maker = QueryMaker(Catalogue(shared), SEED)
    other_name = Candidate("talleres peon marquez", COMPANIES)
    no_name = Candidate("talleres leom marquez", COMPANIES)
    check = maker.ambiguity("typo1", [other_name, no_name])

    assert check(other_name)
    assert not check(no_name)


def test_it_leaves_out_words_in_another_order_that_fit_another_company(rows):
    shared = with_company(rows, "Martínez y García Asociados", [])
    shared = with_company(shared, "García y Martínez Asociados S.L.", [])
    maker = QueryMaker(Catalogue(shared), SEED)
    query = Candidate("asociados martinez garcia", COMPANIES)

    assert maker.ambiguity("order", [query])(query)


def test_it_leaves_out_word_starts_that_fit_another_company(rows):
    shared = with_company(rows, "Panadería Zubizarreta Hermanos", [])
    shared = with_company(shared, "Hermanos Zubiaurre Panaderos", [])
    maker = QueryMaker(Catalogue(shared), SEED)
    fits_both = Candidate("pana zubi her", COMPANIES, ("pana", "zubi", "her"))
    fits_one = Candidate("pana zubiz her", COMPANIES, ("pana", "zubiz", "her"))
    check = maker.ambiguity("starts", [fits_both, fits_one])

    assert check(fits_both)
    assert not check(fits_one)


def test_it_makes_the_same_queries_in_the_same_halves_from_the_same_seed(rows):
    made = {kind: queries for kind, queries, _ in make_queries(Catalogue(rows), SEED, 20, 20)}
    again = {kind: queries for kind, queries, _ in make_queries(Catalogue(rows), SEED, 40, 40)}
    other_seed = {kind: queries for kind, queries, _ in make_queries(Catalogue(rows), 6, 20, 20)}

    assert set(made) == {*KINDS, NOISE}
    for kind, queries in made.items():
        assert again[kind][: len(queries)] == queries, kind  # asking for more adds, changes none
        assert {query.half for query in queries} == {"dev", "test"}, kind
        assert queries != other_seed[kind]
    slugs = {company[1] for company in rows.companies}
    assert all(query.half == half_of(query.expected) for query in made["name"])
    assert all(query.expected in slugs for query in made["typo2"])


def test_it_makes_queries_of_every_kind_as_described(rows):
    made = {kind: queries for kind, queries, _ in make_queries(Catalogue(rows), SEED, 30, 30)}
    names = {company[1]: company[2] for company in rows.companies}

    for kind, mistakes, lengths in [("typo1", 1, range(4, 8)), ("typo2", 2, range(8, 99))]:
        for query in made[kind]:
            name = catalogue.strip_accents(names[query.expected]).lower().split()
            edits = [distance(a, b) for a, b in zip(name, query.text.split(), strict=True)]
            assert sorted(edits) == [0] * (len(edits) - 1) + [mistakes], query
            assert len(name[edits.index(mistakes)]) in lengths, query
            typed = query.text.split()[edits.index(mistakes)]
            assert query.in_budget == (budget(len(typed)) >= mistakes), query
    for query in made["unaccented"]:
        assert query.text == catalogue.strip_accents(query.text)
        assert name_key(query.text) == name_key(names[query.expected])
    for query in made["order"]:
        assert query.text.split() != catalogue.strip_accents(names[query.expected]).lower().split()
        assert sorted(query.text.split()) == sorted(words(names[query.expected], 2))
    assert all(len(query.text) in range(5, 10) for query in made[NOISE])
    vocabulary = Catalogue(rows).vocabulary()
    assert resembling([query.text for query in made[NOISE]], vocabulary) == set()
    assert all(query.text.isalpha() and query.expected == "" for query in made[NOISE])


@pytest.mark.django_db
def test_it_scores_what_the_api_lists_in_the_first_three(api, rows, settings):
    settings.API_RATE_ANONYMOUS = "100000/m"
    Company.objects.bulk_create(
        Company(id=row[0], slug=row[1], name=row[2], alternative_names=row[3], entity_type=row[4])
        for row in rows.companies
    )
    Logo.objects.bulk_create(
        Logo(id=row[0], slug=row[1], title=row[2], company_id=row[3], is_current=row[4])
        for row in rows.logos
    )
    made = {kind: queries for kind, queries, _ in make_queries(Catalogue(rows), SEED, 10, 10)}
    name = made["name"][0]
    logo = next(query for query in made["logo"] if "(" not in query.text)  # a current logo
    wrong = replace(name, expected=made["name"][1].expected)

    found, found_logo, missed = ask(api, name), ask(api, logo), ask(api, wrong)
    noise = [ask(api, query) for query in made[NOISE]]

    assert (found.hit, found.rank, found.first) == (True, 1, name.label)
    assert (found_logo.hit, found_logo.status) == (True, 200)
    assert (missed.hit, missed.rank, missed.first) == (False, None, name.label)
    assert missed.total == found.total >= 1
    assert all(outcome.hit == (outcome.total == 0) for outcome in noise)
