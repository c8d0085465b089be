import pytest

from tests.factories import CompanyFactory, LogoFactory, SectorFactory, make_current

pytestmark = pytest.mark.django_db

URL = "/v1/public/companies"


def names(response) -> list[str]:
    return [item["name"] for item in response.json()["data"]]


def test_it_returns_the_whole_summary_of_each_company(api, django_assert_num_queries):
    sector = SectorFactory(slug="banca", name="Banca")
    company = CompanyFactory(
        slug="banco-nunez", name="Banco Núñez", sector=sector, province="Málaga", is_verified=True
    )
    current = make_current(LogoFactory(company=company, slug="bn-2020", title="Banco Núñez 2020"))
    LogoFactory(company=company, slug="bn-app", title="BN app", is_product=True)

    with django_assert_num_queries(1):  # the ranked page, its rows and the exact total at once
        response = api.get(URL, {"q": "nunez"})

    assert response.status_code == 200
    assert response.json() == {
        "data": [
            {
                "id": str(company.id),
                "slug": "banco-nunez",
                "name": "Banco Núñez",
                "entityType": "COMPANY",
                "isVerified": True,
                "sector": {"slug": "banca", "name": "Banca"},
                "province": "Málaga",
                "logoCount": 2,
                "currentLogo": {
                    "id": str(current.id),
                    "slug": "bn-2020",
                    "title": "Banco Núñez 2020",
                    "previewUrl": None,
                },
                "url": "http://testserver/companies/banco-nunez",
            }
        ],
        "page": 1,
        "pageSize": 20,
        "total": 1,
        "totalPages": 1,
    }


def test_it_lists_without_a_term_in_one_query(api, django_assert_num_queries):
    CompanyFactory.create_batch(3)

    with django_assert_num_queries(1):  # the total and the page's rows, in one statement
        assert api.get(URL).json()["total"] == 3


def test_it_shows_nulls_for_a_company_without_sector_province_or_logo(api):
    CompanyFactory(slug="solo", name="Solo", province=None)

    item = api.get(URL).json()["data"][0]

    assert item["sector"] is None
    assert item["province"] is None
    assert item["currentLogo"] is None
    assert item["logoCount"] == 0


def test_it_ignores_accents_and_case_both_ways(api):
    CompanyFactory(name="Panadería Núñez")
    CompanyFactory(name="Talleres nunez")

    assert sorted(names(api.get(URL, {"q": "nunez"}))) == ["Panadería Núñez", "Talleres nunez"]
    assert sorted(names(api.get(URL, {"q": "NÚÑEZ"}))) == ["Panadería Núñez", "Talleres nunez"]
    assert names(api.get(URL, {"q": "PANADERIA"})) == ["Panadería Núñez"]


def test_it_matches_alternative_names(api):
    CompanyFactory(name="Banco Bilbao Vizcaya Argentaria", alternative_names=["BBVA"])
    CompanyFactory(name="Otra")

    assert names(api.get(URL, {"q": "bbva"})) == ["Banco Bilbao Vizcaya Argentaria"]


def test_it_matches_substrings_anywhere_in_the_name(api):
    CompanyFactory(name="Construcciones Peñalver")

    assert names(api.get(URL, {"q": "struc"})) == ["Construcciones Peñalver"]
    assert names(api.get(URL, {"q": "penal"})) == ["Construcciones Peñalver"]


def test_it_reads_punctuation_as_word_breaks_and_never_as_like_wildcards(api):
    CompanyFactory(name="Cien % Natural")
    CompanyFactory(name="Cien Natural")

    assert names(api.get(URL, {"q": "%"})) == []
    assert names(api.get(URL, {"q": "n_t"})) == []
    assert names(api.get(URL, {"q": "cien%natural"})) == ["Cien % Natural", "Cien Natural"]


def test_it_ranks_the_exact_name_then_the_shorter_names_holding_the_word(api):
    for name in [
        "Cooperativa del Gran Banco Rural",
        "Zeta Banco",
        "Alfa Banco",
        "Banco Sur",
        "Banco",
        "Nuevo Banco",
    ]:
        CompanyFactory(name=name)

    assert names(api.get(URL, {"q": "banco"})) == [
        "Banco",
        "Banco Sur",
        "Alfa Banco",
        "Zeta Banco",
        "Nuevo Banco",
        "Cooperativa del Gran Banco Rural",
    ]


def test_it_ranks_an_exact_alternative_name_first(api):
    CompanyFactory(name="BBVA Seguros")
    CompanyFactory(name="Banco Bilbao Vizcaya Argentaria", alternative_names=["BBVA"])

    assert names(api.get(URL, {"q": "bbva"})) == [
        "Banco Bilbao Vizcaya Argentaria",
        "BBVA Seguros",
    ]


def test_it_orders_by_name_ignoring_accents_without_a_term(api):
    for name in ["Zamora Motor", "Ávila Textil", "abeto", "Óptica Sol"]:
        CompanyFactory(name=name)

    assert names(api.get(URL)) == ["abeto", "Ávila Textil", "Óptica Sol", "Zamora Motor"]


def test_it_filters_by_sector_slug_or_name_ignoring_accents(api):
    telecom = SectorFactory(slug="telecom", name="Telecomunicación")
    CompanyFactory(name="Movilnet", sector=telecom)
    CompanyFactory(name="Panadería", sector=SectorFactory(slug="alimentacion", name="Alimentación"))

    assert names(api.get(URL, {"sector": "telecom"})) == ["Movilnet"]
    assert names(api.get(URL, {"sector": "TELECOMUNICACION"})) == ["Movilnet"]
    assert names(api.get(URL, {"sector": "Telecom"})) == []  # a slug matches exactly


def test_it_answers_an_unknown_sector_or_province_with_no_results(api):
    CompanyFactory(name="Movilnet", sector=SectorFactory())

    for params in ({"sector": "nope"}, {"province": "Atlantis"}):
        response = api.get(URL, params)
        assert response.status_code == 200
        assert response.json() == {
            "data": [],
            "page": 1,
            "pageSize": 20,
            "total": 0,
            "totalPages": 0,
        }


def test_it_filters_by_province_ignoring_accents_and_case(api):
    CompanyFactory(name="Boquerones SL", province="Málaga")
    CompanyFactory(name="Pulpo SL", province="A Coruña")

    assert names(api.get(URL, {"province": "malaga"})) == ["Boquerones SL"]
    assert names(api.get(URL, {"province": "A CORUNA"})) == ["Pulpo SL"]


def test_it_combines_the_term_with_filters(api):
    sector = SectorFactory(slug="banca", name="Banca")
    CompanyFactory(name="Banco Sur", sector=sector, province="Sevilla")
    CompanyFactory(name="Banco Norte", sector=sector, province="Bizkaia")
    CompanyFactory(name="Banco de Semillas", province="Sevilla")

    assert names(api.get(URL, {"q": "banco", "sector": "banca", "province": "sevilla"})) == [
        "Banco Sur"
    ]


class TestPagination:
    @pytest.fixture
    def five(self):
        return [CompanyFactory(name=f"Empresa {n}") for n in range(5)]

    def envelope(self, response) -> dict:
        body = response.json()
        return {key: body[key] for key in ("page", "pageSize", "total", "totalPages")}

    def test_it_serves_the_last_partial_page(self, api, five):
        response = api.get(URL, {"page": 3, "pageSize": 2})

        assert names(response) == ["Empresa 4"]
        assert self.envelope(response) == {"page": 3, "pageSize": 2, "total": 5, "totalPages": 3}

    def test_it_answers_a_page_past_the_last_with_empty_data_and_true_totals(self, api, five):
        response = api.get(URL, {"page": 4, "pageSize": 2})

        assert response.status_code == 200
        assert names(response) == []
        assert self.envelope(response) == {"page": 4, "pageSize": 2, "total": 5, "totalPages": 3}

    def test_it_accepts_page_500_and_page_size_50(self, api, five):
        response = api.get(URL, {"page": 500, "pageSize": 50})

        assert response.status_code == 200
        assert self.envelope(response) == {"page": 500, "pageSize": 50, "total": 5, "totalPages": 1}

    def test_it_does_not_query_rows_past_the_last_page(self, api, five, django_assert_num_queries):
        with django_assert_num_queries(1):
            api.get(URL, {"page": 500})


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"page": "0"}, "page"),
        ({"page": "501"}, "page"),
        ({"page": "two"}, "page"),
        ({"page": ""}, "page"),
        ({"pageSize": "0"}, "pageSize"),
        ({"pageSize": "51"}, "pageSize"),
        ({"pageSize": "-1"}, "pageSize"),
        ({"q": "x" * 101}, "q"),
        ({"sector": "x" * 101}, "sector"),
        ({"province": "x" * 121}, "province"),
        ({"related": "yes"}, "related"),
        ({"related": ""}, "related"),
        ({"pageSize": ""}, "pageSize"),
    ],
)
def test_it_refuses_invalid_parameters_with_details(api, params, field):
    response = api.get(URL, params)

    assert response.status_code == 400
    body = response.json()
    assert body["error"] == "INVALID_REQUEST"
    assert body["message"] == "The request is not valid; see details."
    assert list(body["details"]) == [field]


def test_it_accepts_a_term_of_exactly_100_characters(api):
    assert api.get(URL, {"q": "x" * 100}).status_code == 200


@pytest.mark.parametrize("value", ["1", "true"])
def test_it_adds_an_empty_related_list_when_asked(api, value):
    CompanyFactory(name="Banco Sur")

    body = api.get(URL, {"q": "banco", "related": value}).json()

    assert body["related"] == []
    assert names_of(body) == ["Banco Sur"]


@pytest.mark.parametrize("value", ["0", "false", None])
def test_it_leaves_related_out_unless_asked(api, value):
    params = {"q": "banco"} if value is None else {"q": "banco", "related": value}

    assert "related" not in api.get(URL, params).json()


def names_of(body: dict) -> list[str]:
    return [item["name"] for item in body["data"]]
