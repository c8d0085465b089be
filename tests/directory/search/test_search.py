"""What a term finds and in which order (docs/search.md), and the API's page functions
giving every window of one ranking."""

import random

import pytest
from django.db import connection

from directory.catalogue.models import Company
from directory.search import selectors as search
from tests.factories import CompanyFactory, LogoFactory, SectorFactory, make_current

pytestmark = pytest.mark.django_db

URL = "/v1/public/companies"


def found(api, term: str) -> list[str]:
    return [item["name"] for item in api.get(URL, {"q": term}).json()["data"]]


def catalogue(*names: str) -> None:
    for name in names:
        CompanyFactory(name=name)


# -- What matches ------------------------------------------------------------------------


def test_it_finds_the_words_of_a_name_in_any_order(api):
    catalogue("Carpintería Núñez e Hijos", "Núñez Asesores", "Hijos de Ramón")

    assert found(api, "hijos nunez") == ["Carpintería Núñez e Hijos"]
    assert found(api, "NUÑEZ carpinteria") == ["Carpintería Núñez e Hijos"]


def test_it_finds_the_starts_of_several_words(api):
    catalogue("Banco Ibérico del Duero", "Banco del Sur", "Seguros Ibéricos")

    assert found(api, "banc iber") == ["Banco Ibérico del Duero"]


def test_it_finds_a_word_inside_a_word(api):
    catalogue("Banco Ibérico del Duero", "Talleres Quintanilla")

    assert found(api, "BER") == ["Banco Ibérico del Duero"]
    assert found(api, "tanil") == ["Talleres Quintanilla"]


def test_it_needs_every_word_of_a_long_term(api):
    catalogue(
        "Cooperativa Agraria Virgen del Rosario Olivareros Unidos Sierra Mágina",
        "Cooperativa Agraria Virgen del Rosario Olivareros Unidos Sierra Morena",
    )

    assert found(api, "cooperativa agraria virgen rosario olivareros unidos sierra magina") == [
        "Cooperativa Agraria Virgen del Rosario Olivareros Unidos Sierra Mágina"
    ]


def test_it_matches_a_word_of_one_or_two_letters_at_the_start_of_a_word_only(api):
    catalogue("Bar Lozano", "Palomo Hermanos")

    assert found(api, "bar lo") == ["Bar Lozano"]
    assert found(api, "lo") == ["Bar Lozano"]


def test_it_needs_every_word_but_connectives_legal_forms_and_single_letters(api):
    catalogue("Bodegas del Duero", "Bodegas Ribera")

    assert found(api, "bodegas de la duero") == ["Bodegas del Duero"]
    assert found(api, "bodegas duero sl") == ["Bodegas del Duero"]
    assert found(api, "bodegas duero zamora") == []


@pytest.mark.parametrize(
    ("name", "term"),
    [
        ("Carpintería Núñez", "CARPINTERIA NUNEZ"),
        ("Açúcar Çà", "acucar ca"),
        ("Cal·lígraf Disseny", "calligraf"),
        ("Cal·lígraf Disseny", "cal.ligraf"),
        ("L'Alqueria del Riu", "alqueria riu"),
        ("Bodegas Peña-Roble", "pena roble"),
        ("Pérez & Gálvez Abogados", "perez y galvez"),
        ("Pérez y Gálvez Abogados", "perez & galvez"),
        ("Fills i Néts", "fills e nets"),
        ("I.E.S. Valle del Arlanza", "ies valle"),
        ("Construcciones Arán, S.A.", "construcciones aran sa"),
        ("Construcciones Arán, S.A.", "construcciones aran s.l.u."),
        ("Cooperativa del Campo, S. Coop. And.", "cooperativa campo"),
        ("Hnos. García Ruiz", "hermanos garcia"),
        ("Hermanos García Ruiz", "hnos garcia"),
        ("Cía. Sevillana de Electricidad", "compania sevillana"),
        ("Farmacia Ldo. Fdez.", "farmacia licenciado fernandez"),
    ],
)
def test_it_reads_names_and_terms_with_one_normalisation(api, name, term):
    catalogue(name, "Otra Empresa")

    assert found(api, term) == [name]


@pytest.mark.parametrize(
    ("name", "term"),
    [
        ("Bodegas Peña-Roble", "penaroble"),
        ("L'Alqueria del Riu", "lalqueria"),
        ("Agro Sur Cooperativa", "agrosur"),
        ("Celler Mas d'en Roig", "mas den roig"),
    ],
)
def test_it_finds_words_typed_together(api, name, term):
    catalogue(name, "Bodegas del Sur")

    assert found(api, term) == [name]


@pytest.mark.parametrize(
    ("term", "reason"),
    [
        ("quintanila", "a letter missing"),
        ("quintanillla", "a letter too many"),
        ("qiuntanilla", "two letters swapped"),
        ("quimtanilla", "a letter wrong"),
        ("talleres quintamila", "two letters wrong in a word of eight or more"),
        ("qintanila", "two letters missing"),
        ("kintaniya", "qu/k and ll/y sound the same"),
        ("taleres", "a single l for a double one"),
        ("taller quintanilla", "the singular of a plural"),
        ("iberco", "one edit in a word of six letters"),
    ],
)
def test_it_corrects_typing_mistakes_against_the_catalogues_words(api, term, reason):
    catalogue("Talleres Quintanilla", "Banco Ibérico del Duero", "Construcciones Quintana")

    assert found(api, term)[:1] in (["Talleres Quintanilla"], ["Banco Ibérico del Duero"]), reason


@pytest.mark.parametrize(
    ("term", "name"),
    [
        ("vanco", "Banco Rural"),
        ("aseguradra", "Aseguradora del Norte"),
        ("univercidad", "Universidad de Navarra"),
        ("Núñes", "Carpintería Núñez"),
        ("ortopedia", "Hortopedia Vega"),
    ],
)
def test_it_reads_the_usual_spanish_confusions_as_one_sound(api, term, name):
    catalogue(name, "Otra Empresa")

    assert found(api, term) == [name]


def test_it_corrects_a_typo_that_makes_a_word_only_other_texts_hold(api):
    # "ramos" is a word of the catalogue, but of an "about" text: no name has it.
    catalogue("Embotits Ramis")
    CompanyFactory(name="Floristería Lirio", about="Ramos de novia.")

    assert found(api, "embotits ramos") == ["Embotits Ramis"]


def test_it_corrects_a_word_that_lies_inside_another_word(api):
    # "rieta" is inside "Arrieta", so on its own it matched something as typed.
    catalogue("Forja Riera", "Arrieta Hermanos")

    assert found(api, "forja rieta")[:1] == ["Forja Riera"]


def test_it_corrects_a_word_of_three_letters_only_to_one_that_sounds_the_same(api):
    catalogue("Bar Vaz", "Bar Paz")

    assert found(api, "bas") == ["Bar Vaz"]


def optimal_string_alignment(a: str, b: str) -> int:
    """The distance typo correction measures, computed in full."""
    d = [[i + j if i == 0 or j == 0 else 0 for j in range(len(b) + 1)] for i in range(len(a) + 1)]
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            substitution = d[i - 1][j - 1] + (a[i - 1] != b[j - 1])
            d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, substitution)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
    return d[len(a)][len(b)]


def test_it_measures_typing_distance_counting_a_swap_of_neighbours_as_one_edit():
    rng = random.Random(20)
    words = ["kintanilla", "konstruksion", "abogados", "seguros", "aa", "ab", "ba", "ca", "abc"]
    pairs = [("ca", "abc"), ("abcd", "badc"), ("hotle", "hotel"), ("aab", "aba"), ("a", "")]
    for word in words:
        for _ in range(40):
            typed = list(word)
            for _ in range(rng.randint(1, 3)):
                at = rng.randrange(len(typed))
                edit = rng.choice(["swap", "drop", "add", "change"])
                if edit == "swap" and at + 1 < len(typed):
                    typed[at], typed[at + 1] = typed[at + 1], typed[at]
                elif edit == "drop" and len(typed) > 1:
                    del typed[at]
                elif edit in ("add", "change"):
                    typed[at : at + (edit == "change")] = [rng.choice("abknost")]
            pairs.append((word, "".join(typed)))
    pairs += [(a, b) for a in words for b in words]

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT directory_search_distance(p.a, p.b)"
            " FROM unnest(%s::text[], %s::text[]) WITH ORDINALITY AS p(a, b, n) ORDER BY p.n",
            ([a for a, _ in pairs], [b for _, b in pairs]),
        )
        measured = [row[0] for row in cursor.fetchall()]

    assert measured == [optimal_string_alignment(a, b) for a, b in pairs]


def test_it_reads_a_term_into_one_row_of_patterns_per_required_word():
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT (p).words, (p).exact, (p).whole, (p).start, (p).inside, (p).near, (p).far,"
            " (p).match, (p).corrected"
            " FROM (SELECT directory_search_plan(%s, false) AS p) AS t",
            ["Hnos. García de la Vega"],
        )
        plan = cursor.fetchone()

    # An abbreviation is read as typed and as written out; rows are padded with NULL.
    assert plan == (
        ["hnos", "garcia", "vega"],
        ["%| hermanos garcia de la vega |%"],
        [["% hermanos %", "% hnos %"], ["% garcia %", None], ["% vega %", None]],
        [["% hermanos%", "% hnos%"], ["% garcia%", None], ["% vega%", None]],
        [["%hermanos%", "%hnos%"], ["%garcia%", None], ["%vega%", None]],
        [[None, None]] * 3,
        [[None, None]] * 3,
        [
            ["%hermanos%", "%hnos%", None, None, None, None],
            ["%garcia%", None, None, None, None, None],
            ["%vega%", None, None, None, None, None],
        ],
        # Every word is corrected too: "vega", which no text of this catalogue holds, reads
        # as the nearest word the lexicon has (of the kinds of business) for related search.
        "hnos garcia de la veg",
    )


def test_it_keeps_one_start_pattern_for_an_abbreviation_that_starts_its_word():
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT (p).whole, (p).start, (p).inside"
            " FROM (SELECT directory_search_plan(%s, false) AS p) AS t",
            ["asoc vecinos"],
        )
        whole, start, inside = cursor.fetchone()

    # Every name that holds "asociacion" holds "asoc": the longer start adds nothing to find.
    assert whole == [["% asoc %", "% asociacion %"], ["% vecinos %", None]]
    assert start == [["% asoc%", None], ["% vecinos%", None]]
    assert inside == [["%asoc%", None], ["%vecinos%", None]]


def test_it_ranks_an_abbreviation_written_out_as_a_whole_word(api):
    catalogue("Asociados Vecinos Sur", "Asociación de Vecinos Norte", "Vecinos Unidos")

    assert found(api, "asoc vecinos") == ["Asociación de Vecinos Norte", "Asociados Vecinos Sur"]


def test_it_finds_nothing_for_noise(api):
    catalogue("Talleres Quintanilla", "Banco Ibérico del Duero")

    for term in ["qxzvw plof", "astronauta jirafa", "%", "--", "zz"]:
        body = api.get(URL, {"q": term}).json()
        assert (body["total"], body["data"]) == (0, []), term


def test_it_lists_what_matches_as_typed_before_what_matches_corrected(api):
    catalogue("Talleres Quintano", "Talleres Quintana", "Talleres Quintanilla")

    assert found(api, "quintana") == ["Talleres Quintana", "Talleres Quintano"]


def test_it_corrects_a_word_the_catalogue_holds_when_the_other_words_need_it(api):
    # "peon" is a word of the catalogue, but no company holds it with the others.
    catalogue("Talleres León Márquez", "Construcciones Peón", "Talleres Márquez Peña")

    assert found(api, "talleres peon marquez") == ["Talleres León Márquez"]


def test_it_weighs_every_correction_of_a_word_against_the_other_words(api):
    # "hjos" has many neighbours one edit away; the one the term needs is among them.
    catalogue("Ajos Tiernos", "Ojos Claros", "Hios Vinos", "Hoos Bar", "Hjs Redes", "Jos Cafe")
    catalogue("Hjo Diseño", "Hjus Textil", "Hjosa Gas", "Hijas Ramos", "Envases Ceti e Hijos")

    assert found(api, "envases hjos") == ["Envases Ceti e Hijos"]


def test_it_counts_a_mistake_as_spelt_when_it_breaks_a_sound_rule(api):
    # "marquuez" sounds as "marque", "marquez" as "mark": one edit apart as spelt.
    catalogue("Chocolates Márquez Hermanos", "Chocolates Ruiz")

    assert found(api, "chocolates marquuez hermanos") == ["Chocolates Márquez Hermanos"]


# -- In which order ----------------------------------------------------------------------


def test_it_ranks_the_exact_name_then_whole_words_and_starts_then_insides(api):
    catalogue(
        "Construcciones Banco Sur",  # the word whole, in a longer name
        "Tribanco",  # inside a word
        "Banco",  # the exact name
        "Bancos Unidos",  # the start of a word
        "Banco Sur",  # the word whole
    )

    assert found(api, "banco") == [
        "Banco",
        "Banco Sur",
        "Construcciones Banco Sur",
        "Bancos Unidos",
        "Tribanco",
    ]


def test_it_ranks_an_exact_alternative_name_first(api):
    CompanyFactory(name="Movistar Fibra")
    CompanyFactory(name="Telefónica", alternative_names=["Movistar"])

    assert found(api, "movistar") == ["Telefónica", "Movistar Fibra"]


def test_it_ranks_fewer_partial_words_first(api):
    catalogue("Tribanco Ibérica", "Bancos Ibéricos", "Banco Ibérico del Duero")

    assert found(api, "banco iber") == [
        "Banco Ibérico del Duero",  # a whole word, a start
        "Bancos Ibéricos",  # two starts
        "Tribanco Ibérica",  # inside a word
    ]


def test_it_ranks_nearer_corrections_first(api):
    catalogue("Talleres Quintanilla", "Talleres Quintana")

    assert found(api, "talleres quintanila") == ["Talleres Quintanilla", "Talleres Quintana"]


def test_it_breaks_ties_by_the_shorter_document_then_the_name(api):
    catalogue("Hotel Sol Mar", "Hotel Sol", "Hotel Brisa Sol")

    assert found(api, "sol") == ["Hotel Sol", "Hotel Sol Mar", "Hotel Brisa Sol"]


def test_it_ranks_names_with_the_legal_form_typed_first_of_those_that_match_alike(api):
    CompanyFactory(name="Pastelería Coria")
    CompanyFactory(name="Pastelería Coria S.L.")
    CompanyFactory(name="Pastelería Coria, S. Coop.", alternative_names=["PC Coop"])
    CompanyFactory(name="Mesa S.A.")
    CompanyFactory(name="Mesa")

    assert found(api, "Pastelería Coria S.Coop.")[0] == "Pastelería Coria, S. Coop."
    assert found(api, "pasteleria coria sl")[0] == "Pastelería Coria S.L."
    assert found(api, "pastelerai coria s coop")[0] == "Pastelería Coria, S. Coop."  # corrected
    assert found(api, "pasteleria coria") == [
        "Pastelería Coria",
        "Pastelería Coria S.L.",
        "Pastelería Coria, S. Coop.",
    ]
    assert found(api, "mesa sa") == ["Mesa S.A.", "Mesa"]  # "Mesa" ends in "sa" too
    assert found(api, "meas s.a.") == ["Mesa S.A.", "Mesa"]  # corrected


def test_it_ranks_the_exact_name_written_as_typed_first_whatever_its_other_names(api):
    CompanyFactory(name="Clínica Garrido S.Coop.")
    CompanyFactory(name="Clínica Garrido", alternative_names=["CG Salud"])
    CompanyFactory(name="Pérez y Gálvez")
    CompanyFactory(name="Pérez & Gálvez", alternative_names=["PG"])

    assert found(api, "clinica garrido") == ["Clínica Garrido", "Clínica Garrido S.Coop."]
    assert found(api, "perez & galvez") == ["Pérez & Gálvez", "Pérez y Gálvez"]


# -- Pages and querysets agree -------------------------------------------------------------

WORDS = ["Banco", "Banca", "banco", "Bancos", "Abanico", "Caja", "Sur", "Norte", "de", "la"]
WORDS += ["Ñandú"]


@pytest.fixture
def companies():
    rng = random.Random(7)
    sectors = [SectorFactory(slug="banca", name="Banca"), SectorFactory(slug="otros", name="Otros")]
    for n in range(120):
        name = " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 4)))
        name += " S.L." if rng.random() < 0.3 else ""
        company = CompanyFactory(
            name=name,
            alternative_names=[rng.choice(WORDS)] if rng.random() < 0.3 else [],
            sector=rng.choice(sectors),
            province=rng.choice(["Málaga", "Cádiz"]),
        )
        logo = LogoFactory(company=company, title=f"{name} {n % 3}")
        if rng.random() < 0.5:
            make_current(logo)


# One-word terms take the page function's other road (by rank class and length; with a
# legal form, each class's shortest rows until they hold enough names ending with it).
TERMS = ["banco", "ban", "BANCA", "an", "a", "o", "de la", "nandu", "sur", "zzz", "vanco"]
TERMS += ["bancos sur", "ban s.l.", "sur sl", "caja s.l"]
WINDOWS = [(0, 20), (0, 1), (3, 7), (14, 50), (40, 20), (119, 5)]


def whole(page, **kwargs) -> tuple[list[str], int]:
    """Every match of a page function, in one page."""
    rows, total = page(**kwargs, offset=0, limit=10_000)
    return [row["id"] for row in rows], total


@pytest.mark.parametrize("term", TERMS)
def test_it_pages_companies_as_windows_of_one_ranking(companies, term):
    # Pages carry ids as strings, as their JSON gives them.
    unfiltered = {"term": term, "sector": None, "province": None}
    expected, count = whole(search.company_page, **unfiltered)

    assert count == len(expected)
    for offset, limit in WINDOWS:
        rows, total = search.company_page(**unfiltered, offset=offset, limit=limit)
        window = expected[offset : offset + limit]
        assert ([row["id"] for row in rows], total) == (window, len(expected))


@pytest.mark.parametrize("term", ["banco", "a", "sur", "bancos sur", None])
def test_it_pages_companies_within_filters_as_windows_of_one_ranking(companies, term):
    filtered = {"term": term, "sector": "BANCA", "province": "malaga"}
    expected, count = whole(search.company_page, **filtered)

    assert count == len(expected)
    assert 0 < count < len(whole(search.company_page, term=term, sector=None, province=None)[0])
    for offset, limit in WINDOWS:
        rows, total = search.company_page(**filtered, offset=offset, limit=limit)
        window = expected[offset : offset + limit]
        assert ([row["id"] for row in rows], total) == (window, len(expected))


@pytest.mark.parametrize("term", ["banco", "ban", "nandu", "vanco", "caja s.l"])
def test_it_ranks_a_one_word_term_by_class_as_it_ranks_the_term_within_filters(companies, term):
    # Without filters the classes' windows are read one by one (under plans made once when
    # they hold few rows); within filters every match is read at once: one ranking.
    by_class, _ = whole(search.company_page, term=term, sector=None, province=None)
    kept = Company.objects.filter(sector__slug="banca", province="Málaga")
    kept_ids = {str(pk) for pk in kept.values_list("id", flat=True)}
    at_once, _ = whole(search.company_page, term=term, sector="banca", province="Málaga")

    assert at_once
    assert [pk for pk in by_class if pk in kept_ids] == at_once


@pytest.mark.parametrize("term", [*TERMS, None])
def test_it_pages_logos_as_windows_of_one_ranking(companies, term):
    expected, count = whole(search.logo_page, term=term)

    assert count == len(expected)
    for offset, limit in WINDOWS:
        rows, total = search.logo_page(term=term, offset=offset, limit=limit)
        window = expected[offset : offset + limit]
        assert ([row["id"] for row in rows], total) == (window, len(expected))


def test_it_counts_past_the_last_page(companies):
    assert search.company_page(term="", sector=None, province=None, offset=500, limit=20) == (
        [],
        120,
    )
    assert search.logo_page(term="a", offset=10_000, limit=20) == (
        [],
        len(whole(search.logo_page, term="a")[0]),
    )
