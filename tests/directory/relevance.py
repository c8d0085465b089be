"""A relevance set for related companies: companies, and queries with the companies
they should find.

No company's name contains its query's word, so each hit comes from meaning. A query
names the groups it must find (`expected`: one of them in the top three is a hit) and,
where a neighbouring group is a fair answer too, the groups it may list (`acceptable`);
any other company in `related` counts against precision.
"""

from dataclasses import dataclass

SECTORS = {
    "banca": "Banca",
    "hosteleria": "Hostelería",
    "seguros": "Seguros",
    "telecomunicaciones": "Telecomunicaciones",
    "distribucion": "Distribución alimentaria",
    "energia": "Energía",
    "moda": "Moda y textil",
    "bebidas": "Bebidas",
    "transporte": "Transporte aéreo",
    "turismo": "Turismo",
    "automocion": "Automoción",
    "farmacia": "Salud y farmacia",
}

# slug: (name, sector slug, province, about, group)
COMPANIES = {
    # Banks
    "santander": (
        "Santander",
        "banca",
        "Cantabria",
        "Entidad financiera con cuentas, tarjetas, hipotecas y préstamos.",
        "bank",
    ),
    "bbva": (
        "BBVA",
        "banca",
        "Bizkaia",
        "Banking group offering current accounts, mortgages and loans.",
        "bank",
    ),
    "caixabank": (
        "CaixaBank",
        "banca",
        "Valencia",
        "Entidad de crédito: depósitos, hipotecas y banca digital.",
        "bank",
    ),
    "sabadell": (
        "Sabadell",
        "banca",
        "Barcelona",
        "Financial institution for families and small businesses.",
        "bank",
    ),
    "unicaja": (
        "Unicaja",
        "banca",
        "Málaga",
        "Caja de ahorros convertida en entidad bancaria con oficinas en Andalucía.",
        "bank",
    ),
    "bankinter": (
        "Bankinter",
        "banca",
        "Madrid",
        "Cuentas nómina, hipotecas y gestión de patrimonio.",
        "bank",
    ),
    # Coffee chains
    "starbucks": (
        "Starbucks",
        "hosteleria",
        "Madrid",
        "Coffeehouse chain serving espresso drinks and pastries.",
        "coffee",
    ),
    "tim-hortons": (
        "Tim Hortons",
        "hosteleria",
        "Madrid",
        "Cadena de cafeterías con café de filtro y dónuts.",
        "coffee",
    ),
    "juan-valdez": (
        "Juan Valdez",
        "hosteleria",
        "Madrid",
        "Tiendas de café colombiano de origen.",
        "coffee",
    ),
    "costa-coffee": (
        "Costa",
        "hosteleria",
        "Barcelona",
        "Chain of cafés serving coffee, tea and sandwiches.",
        "coffee",
    ),
    "cafes-la-estrella": (
        "La Estrella",
        "hosteleria",
        "Valencia",
        "Tostadero de café en grano y cafeterías de barrio.",
        "coffee",
    ),
    # Insurers
    "mapfre": (
        "Mapfre",
        "seguros",
        "Madrid",
        "Aseguradora de coche, hogar, vida y salud.",
        "insurer",
    ),
    "allianz": (
        "Allianz",
        "seguros",
        "Madrid",
        "Insurance for cars, homes and businesses.",
        "insurer",
    ),
    "mutua-madrilena": (
        "Mutua Madrileña",
        "seguros",
        "Madrid",
        "Mutua de seguros de automóvil y salud.",
        "insurer",
    ),
    "linea-directa": (
        "Línea Directa",
        "seguros",
        "Madrid",
        "Pólizas de coche y moto contratadas por teléfono e internet.",
        "insurer",
    ),
    "axa": ("AXA", "seguros", "Madrid", "Insurer offering life, health and home cover.", "insurer"),
    # Telecoms
    "movistar": (
        "Movistar",
        "telecomunicaciones",
        "Madrid",
        "Operador de telefonía móvil, fibra óptica y televisión.",
        "telecom",
    ),
    "vodafone": (
        "Vodafone",
        "telecomunicaciones",
        "Madrid",
        "Mobile network operator with broadband and TV.",
        "telecom",
    ),
    "orange": (
        "Orange",
        "telecomunicaciones",
        "Madrid",
        "Tarifas de móvil y fibra para particulares y empresas.",
        "telecom",
    ),
    "digi": (
        "Digi",
        "telecomunicaciones",
        "Madrid",
        "Low-cost mobile carrier and fibre internet provider.",
        "telecom",
    ),
    "masmovil": (
        "MásMóvil",
        "telecomunicaciones",
        "Madrid",
        "Compañía de telefonía e internet con tarifas de móvil baratas.",
        "telecom",
    ),
    # Grocery chains
    "mercadona": (
        "Mercadona",
        "distribucion",
        "Valencia",
        "Cadena de supermercados con productos frescos y marca propia.",
        "grocery",
    ),
    "lidl": (
        "Lidl",
        "distribucion",
        "Barcelona",
        "Discount grocery chain selling food and household goods.",
        "grocery",
    ),
    "eroski": (
        "Eroski",
        "distribucion",
        "Bizkaia",
        "Cooperativa de distribución con hipermercados y tiendas de alimentación.",
        "grocery",
    ),
    "alcampo": (
        "Alcampo",
        "distribucion",
        "Madrid",
        "Hipermercados con alimentación, droguería y electrónica.",
        "grocery",
    ),
    "dia": (
        "Dia",
        "distribucion",
        "Madrid",
        "Tiendas de proximidad de alimentación a precios bajos.",
        "grocery",
    ),
    # Energy
    "repsol": (
        "Repsol",
        "energia",
        "Madrid",
        "Compañía de petróleo y gas con estaciones de servicio.",
        "energy",
    ),
    "iberdrola": (
        "Iberdrola",
        "energia",
        "Bizkaia",
        "Electric utility generating and selling electricity from renewables.",
        "energy",
    ),
    "endesa": (
        "Endesa",
        "energia",
        "Madrid",
        "Comercializadora de luz y gas para hogares.",
        "energy",
    ),
    "naturgy": (
        "Naturgy",
        "energia",
        "Barcelona",
        "Distribución de gas natural y electricidad.",
        "energy",
    ),
    # Fashion
    "zara": (
        "Zara",
        "moda",
        "A Coruña",
        "Tiendas de ropa y complementos para mujer, hombre y niños.",
        "fashion",
    ),
    "mango": (
        "Mango",
        "moda",
        "Barcelona",
        "Clothing and accessories brand for women and men.",
        "fashion",
    ),
    "desigual": (
        "Desigual",
        "moda",
        "Barcelona",
        "Marca de vestidos, camisetas y bolsos con estampados.",
        "fashion",
    ),
    # Beer
    "mahou": ("Mahou", "bebidas", "Madrid", "Fábrica de cerveza fundada en Madrid.", "beer"),
    "estrella-damm": (
        "Estrella Damm",
        "bebidas",
        "Barcelona",
        "Brewery producing lager since 1876.",
        "beer",
    ),
    "alhambra": ("Alhambra", "bebidas", "Granada", "Cervecera granadina de lager.", "beer"),
    # Airlines
    "iberia": (
        "Iberia",
        "transporte",
        "Madrid",
        "Compañía aérea con vuelos nacionales e internacionales.",
        "airline",
    ),
    "vueling": (
        "Vueling",
        "transporte",
        "Barcelona",
        "Low-cost airline flying across Europe.",
        "airline",
    ),
    "air-europa": (
        "Air Europa",
        "transporte",
        "Illes Balears",
        "Aerolínea con vuelos a América y Europa.",
        "airline",
    ),
    # Hotels
    "melia": (
        "Meliá",
        "turismo",
        "Illes Balears",
        "Cadena hotelera con hoteles y resorts de playa y ciudad.",
        "hotel",
    ),
    "nh": ("NH", "turismo", "Madrid", "Hotel chain with city hotels for business trips.", "hotel"),
    "barcelo": (
        "Barceló",
        "turismo",
        "Illes Balears",
        "Grupo de hoteles vacacionales y agencia de viajes.",
        "hotel",
    ),
    # Cars
    "seat": (
        "SEAT",
        "automocion",
        "Barcelona",
        "Fabricante de coches con planta en Martorell.",
        "car",
    ),
    "cupra": (
        "Cupra",
        "automocion",
        "Barcelona",
        "Sporty car brand building electric and hybrid models.",
        "car",
    ),
    # Pharmacy and health
    "grifols": (
        "Grifols",
        "farmacia",
        "Barcelona",
        "Laboratorio de medicamentos derivados del plasma.",
        "pharma",
    ),
    "almirall": (
        "Almirall",
        "farmacia",
        "Barcelona",
        "Pharmaceutical company focused on dermatology medicines.",
        "pharma",
    ),
    "quironsalud": (
        "Quirónsalud",
        "farmacia",
        "Madrid",
        "Red de hospitales privados y clínicas.",
        "pharma",
    ),
    # Unrelated to every query
    "pescanova": ("Pescanova", None, "Pontevedra", "Pescado y marisco congelado.", "food"),
    "telepizza": (
        "Telepizza",
        None,
        "Madrid",
        "Pizza delivery and takeaway restaurants.",
        "restaurant",
    ),
}


@dataclass(frozen=True)
class Query:
    text: str
    expected: frozenset[str]
    acceptable: frozenset[str] = frozenset()


def q(text: str, expected: str, acceptable: str = "") -> Query:
    return Query(text, frozenset(expected.split()), frozenset(acceptable.split()))


QUERIES = [
    # The words
    q("banco", "bank"),
    q("bank", "bank"),
    q("café", "coffee"),
    q("seguros", "insurer"),
    q("telefonía", "telecom"),
    q("supermercado", "grocery"),
    # English
    q("coffee shop", "coffee", "restaurant"),
    q("insurance", "insurer"),
    q("mobile phone operator", "telecom"),
    q("grocery store", "grocery", "food"),
    q("airline", "airline"),
    q("beer", "beer"),
    q("electricity", "energy"),
    q("clothing", "fashion"),
    q("hotels", "hotel"),
    # Synonyms and sector words
    q("entidad financiera", "bank"),
    q("hipoteca", "bank"),
    q("aseguradora", "insurer"),
    q("seguro de coche", "insurer", "car"),
    q("cafetería", "coffee", "restaurant"),
    q("fibra óptica", "telecom"),
    q("ropa", "fashion"),
    q("cerveza", "beer"),
    q("gasolina", "energy"),
    q("vuelos baratos", "airline"),
    q("medicamentos", "pharma"),
    # Accents removed
    q("cafe", "coffee", "restaurant"),
    q("telefonia movil", "telecom"),
    q("aerolinea", "airline"),
    q("energia electrica", "energy"),
    # Typos
    q("supermercdo", "grocery", "food"),
    q("aseguradra", "insurer"),
]
