"""Related set: queries for `related=true` search, and the kinds of business they mean.

Each query names the groups (`related_catalogue.Company.group`) that a good answer belongs
to: one company of an `expected` group in the top three is a hit. `acceptable` lists
neighbouring groups that are fair answers too, and are not counted against precision;
any other company listed counts against it. The query words mostly do not appear in the
companies' names, so hits must come from meaning. `KINDS` says what each kind tests.

The queries were written over the catalogue, without looking at how search is
implemented and before running them. Split: within each kind, in the order they were
written, queries go alternately to DEV and TEST (first to DEV), so both halves have the
same size and the same mix of kinds. Tune on DEV; report on TEST.
"""

from dataclasses import dataclass


@dataclass(frozen=True)
class Query:
    text: str
    expected: frozenset[str]
    acceptable: frozenset[str] = frozenset()
    kind: str = ""


KINDS: dict[str, str] = {
    "word-es": "one Spanish word, often a kind of business",
    "word-en": "one English word, often a kind of business",
    "phrase-es": "a Spanish phrase saying what the person needs",
    "phrase-en": "an English phrase saying what the person needs",
    "misspelled": "a word with one or two letters wrong, in either language",
    "unaccented": "Spanish words typed without their accents",
    "synonym": "a less usual word or phrase for the kind of business",
}

DEV: tuple[Query, ...] = (
    # word-es
    Query("aseguradora", frozenset({"insurer"}), kind="word-es"),
    Query("aerolínea", frozenset({"airline"}), kind="word-es"),
    Query("universidad", frozenset({"university"}), kind="word-es"),
    Query("bodega", frozenset({"winery"}), kind="word-es"),
    Query("abogados", frozenset({"law-firm"}), kind="word-es"),
    Query("dentista", frozenset({"dental-clinic"}), kind="word-es"),
    Query(
        "inmobiliaria",
        frozenset({"real-estate"}),
        acceptable=frozenset({"construction"}),
        kind="word-es",
    ),
    Query("farmacéutica", frozenset({"pharma"}), kind="word-es"),
    Query("ropa", frozenset({"fashion"}), kind="word-es"),
    Query(
        "fotovoltaica",
        frozenset({"solar-installer"}),
        acceptable=frozenset({"electric-utility"}),
        kind="word-es",
    ),
    # word-en
    Query("insurance", frozenset({"insurer"}), kind="word-en"),
    Query("airline", frozenset({"airline"}), kind="word-en"),
    Query("college", frozenset({"university"}), kind="word-en"),
    Query("winery", frozenset({"winery"}), kind="word-en"),
    Query("gym", frozenset({"gym"}), kind="word-en"),
    Query("accountant", frozenset({"accounting"}), kind="word-en"),
    Query("vet", frozenset({"veterinary"}), kind="word-en"),
    Query("builder", frozenset({"construction"}), kind="word-en"),
    Query("restaurant", frozenset({"restaurant"}), kind="word-en"),
    Query("carmaker", frozenset({"car-maker"}), kind="word-en"),
    # phrase-es
    Query("seguro para el coche", frozenset({"insurer"}), kind="phrase-es"),
    Query("dónde dormir en Sevilla", frozenset({"hotel"}), kind="phrase-es"),
    Query("enviar un paquete urgente", frozenset({"logistics"}), kind="phrase-es"),
    Query("aprender inglés", frozenset({"language-school"}), kind="phrase-es"),
    Query("fibra y móvil", frozenset({"telecom"}), kind="phrase-es"),
    Query("medicamentos genéricos", frozenset({"pharma"}), kind="phrase-es"),
    Query("ortodoncia invisible", frozenset({"dental-clinic"}), kind="phrase-es"),
    Query("declaración de la renta", frozenset({"accounting"}), kind="phrase-es"),
    Query("vino tinto de Ribera", frozenset({"winery"}), kind="phrase-es"),
    Query("alquilar un piso", frozenset({"real-estate"}), kind="phrase-es"),
    # phrase-en
    Query("where to stay in Bilbao", frozenset({"hotel"}), kind="phrase-en"),
    Query("open a savings account", frozenset({"bank"}), kind="phrase-en"),
    Query(
        "accept card payments in my shop",
        frozenset({"payments"}),
        acceptable=frozenset({"bank"}),
        kind="phrase-en",
    ),
    Query("custom software development", frozenset({"software"}), kind="phrase-en"),
    Query("build a warehouse", frozenset({"construction"}), kind="phrase-en"),
    Query("craft beer", frozenset({"brewery"}), kind="phrase-en"),
    Query("private hospital with emergency room", frozenset({"hospital"}), kind="phrase-en"),
    Query("learn Spanish in Spain", frozenset({"language-school"}), kind="phrase-en"),
    Query("electric car factory", frozenset({"car-maker"}), kind="phrase-en"),
    Query("women's clothing store", frozenset({"fashion"}), kind="phrase-en"),
    # misspelled
    Query("insurence", frozenset({"insurer"}), kind="misspelled"),
    Query("aerolinia", frozenset({"airline"}), kind="misspelled"),
    Query("restaurnte", frozenset({"restaurant"}), kind="misspelled"),
    Query("cervesa", frozenset({"brewery"}), kind="misspelled"),
    Query("abogdo", frozenset({"law-firm"}), kind="misspelled"),
    Query("veterinaro", frozenset({"veterinary"}), kind="misspelled"),
    Query("pharmacuetical", frozenset({"pharma"}), kind="misspelled"),
    Query("supermarkt", frozenset({"supermarket"}), kind="misspelled"),
    Query("electricty", frozenset({"electric-utility"}), kind="misspelled"),
    Query("coffe", frozenset({"coffee"}), kind="misspelled"),
    # unaccented
    Query("telefono movil", frozenset({"telecom"}), kind="unaccented"),
    Query("gestoria fiscal", frozenset({"accounting"}), kind="unaccented"),
    Query("musculacion", frozenset({"gym"}), kind="unaccented"),
    Query(
        "cafeteria",
        frozenset({"coffee"}),
        acceptable=frozenset({"bakery", "restaurant"}),
        kind="unaccented",
    ),
    Query("energia electrica", frozenset({"electric-utility"}), kind="unaccented"),
    Query("poliza de seguro", frozenset({"insurer"}), kind="unaccented"),
    Query("consultoria informatica", frozenset({"software"}), kind="unaccented"),
    Query("educacion superior", frozenset({"university"}), kind="unaccented"),
    Query(
        "construccion de viviendas",
        frozenset({"construction"}),
        acceptable=frozenset({"real-estate"}),
        kind="unaccented",
    ),
    Query(
        "energia solar",
        frozenset({"solar-installer"}),
        acceptable=frozenset({"electric-utility"}),
        kind="unaccented",
    ),
    # synonym
    Query("caja de ahorros", frozenset({"bank"}), kind="synonym"),
    Query("mutua", frozenset({"insurer"}), kind="synonym"),
    Query("posada", frozenset({"hotel"}), kind="synonym"),
    Query("tour operator", frozenset({"travel-agency"}), kind="synonym"),
    Query("mesón", frozenset({"restaurant"}), kind="synonym"),
    Query("transitario", frozenset({"logistics"}), kind="synonym"),
    Query("facultad", frozenset({"university"}), kind="synonym"),
    Query("ultramarinos", frozenset({"supermarket"}), kind="synonym"),
    Query("drugmaker", frozenset({"pharma"}), kind="synonym"),
    Query("bufete", frozenset({"law-firm"}), kind="synonym"),
)

TEST: tuple[Query, ...] = (
    # word-es
    Query("alojamiento", frozenset({"hotel"}), kind="word-es"),
    Query("paquetería", frozenset({"logistics"}), kind="word-es"),
    Query("panadería", frozenset({"bakery"}), kind="word-es"),
    Query("gimnasio", frozenset({"gym"}), kind="word-es"),
    Query("gestoría", frozenset({"accounting"}), kind="word-es"),
    Query("veterinario", frozenset({"veterinary"}), kind="word-es"),
    Query(
        "constructora",
        frozenset({"construction"}),
        acceptable=frozenset({"real-estate"}),
        kind="word-es",
    ),
    Query("restaurante", frozenset({"restaurant"}), kind="word-es"),
    Query("hipotecas", frozenset({"bank"}), kind="word-es"),
    Query("automóviles", frozenset({"car-maker"}), kind="word-es"),
    # word-en
    Query("accommodation", frozenset({"hotel"}), kind="word-en"),
    Query("courier", frozenset({"logistics"}), kind="word-en"),
    Query("bakery", frozenset({"bakery"}), acceptable=frozenset({"coffee"}), kind="word-en"),
    Query("brewery", frozenset({"brewery"}), kind="word-en"),
    Query("lawyer", frozenset({"law-firm"}), kind="word-en"),
    Query("dentist", frozenset({"dental-clinic"}), kind="word-en"),
    Query("realtor", frozenset({"real-estate"}), kind="word-en"),
    Query("pharmaceuticals", frozenset({"pharma"}), kind="word-en"),
    Query("groceries", frozenset({"supermarket"}), kind="word-en"),
    Query(
        "photovoltaics",
        frozenset({"solar-installer"}),
        acceptable=frozenset({"electric-utility"}),
        kind="word-en",
    ),
    # phrase-es
    Query("pan de masa madre", frozenset({"bakery"}), kind="phrase-es"),
    Query(
        "vuelos baratos a Europa",
        frozenset({"airline"}),
        acceptable=frozenset({"travel-agency"}),
        kind="phrase-es",
    ),
    Query("estudiar un grado de ingeniería", frozenset({"university"}), kind="phrase-es"),
    Query("hacer la compra online", frozenset({"supermarket"}), kind="phrase-es"),
    Query("programa de facturación", frozenset({"software"}), kind="phrase-es"),
    Query("médico de urgencias", frozenset({"hospital"}), kind="phrase-es"),
    Query("vacunar al perro", frozenset({"veterinary"}), kind="phrase-es"),
    Query("abogado de divorcios", frozenset({"law-firm"}), kind="phrase-es"),
    Query("placas solares para casa", frozenset({"solar-installer"}), kind="phrase-es"),
    Query(
        "pagar con el móvil",
        frozenset({"payments"}),
        acceptable=frozenset({"bank"}),
        kind="phrase-es",
    ),
    # phrase-en
    Query("book a holiday package", frozenset({"travel-agency"}), kind="phrase-en"),
    Query("cover for my car", frozenset({"insurer"}), kind="phrase-en"),
    Query("cheap mobile plan", frozenset({"telecom"}), kind="phrase-en"),
    Query("electricity and gas supplier", frozenset({"electric-utility"}), kind="phrase-en"),
    Query("flat to rent", frozenset({"real-estate"}), kind="phrase-en"),
    Query("freshly roasted coffee beans", frozenset({"coffee"}), kind="phrase-en"),
    Query("teeth whitening", frozenset({"dental-clinic"}), kind="phrase-en"),
    Query("master's degree", frozenset({"university"}), kind="phrase-en"),
    Query("dinner with a tasting menu", frozenset({"restaurant"}), kind="phrase-en"),
    Query("personal trainer and weights", frozenset({"gym"}), kind="phrase-en"),
    # misspelled
    Query("accomodation", frozenset({"hotel"}), kind="misspelled"),
    Query("panadreia", frozenset({"bakery"}), kind="misspelled"),
    Query("winnery", frozenset({"winery"}), kind="misspelled"),
    Query("gimansio", frozenset({"gym"}), kind="misspelled"),
    Query("ortodonsia", frozenset({"dental-clinic"}), kind="misspelled"),
    Query(
        "inmobilaria",
        frozenset({"real-estate"}),
        acceptable=frozenset({"construction"}),
        kind="misspelled",
    ),
    Query("univeristy", frozenset({"university"}), kind="misspelled"),
    Query("sofware", frozenset({"software"}), kind="misspelled"),
    Query("acountant", frozenset({"accounting"}), kind="misspelled"),
    Query("lojistica", frozenset({"logistics"}), kind="misspelled"),
    # unaccented
    Query("panaderia artesana", frozenset({"bakery"}), kind="unaccented"),
    Query("farmaceutica", frozenset({"pharma"}), kind="unaccented"),
    Query("clinica dental", frozenset({"dental-clinic"}), kind="unaccented"),
    Query(
        "cerveceria artesana",
        frozenset({"brewery"}),
        acceptable=frozenset({"restaurant"}),
        kind="unaccented",
    ),
    Query("prestamo personal", frozenset({"bank"}), kind="unaccented"),
    Query("compania aerea", frozenset({"airline"}), kind="unaccented"),
    Query("clinica veterinaria", frozenset({"veterinary"}), kind="unaccented"),
    Query("academia de ingles", frozenset({"language-school"}), kind="unaccented"),
    Query("tienda de alimentacion", frozenset({"supermarket"}), kind="unaccented"),
    Query("fabrica de coches", frozenset({"car-maker"}), kind="unaccented"),
    # synonym
    Query("lender", frozenset({"bank"}), acceptable=frozenset({"payments"}), kind="synonym"),
    Query("fintech", frozenset({"payments"}), acceptable=frozenset({"bank"}), kind="synonym"),
    Query(
        "promotora",
        frozenset({"real-estate"}),
        acceptable=frozenset({"construction"}),
        kind="synonym",
    ),
    Query("turoperador", frozenset({"travel-agency"}), kind="synonym"),
    Query("línea aérea", frozenset({"airline"}), kind="synonym"),
    Query("automaker", frozenset({"car-maker"}), kind="synonym"),
    Query("boutique", frozenset({"fashion"}), acceptable=frozenset({"hotel"}), kind="synonym"),
    Query("operadora", frozenset({"telecom"}), kind="synonym"),
    Query("sanatorio", frozenset({"hospital"}), kind="synonym"),
    Query("tostadero", frozenset({"coffee"}), kind="synonym"),
)
