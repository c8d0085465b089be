"""The demo catalogue: invented companies of Spain, with logos drawn from simple shapes.

Everything comes from one random.Random(seed) and no clock, so a seed always
gives the same catalogue, byte for byte, and seeding twice imports as unchanged.
The catalogue is a dict in the import's JSON format (directory/importer.py);
the files it names are described by Drawing values and drawn on demand.
"""

import io
import json
import math
import random
import unicodedata
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from django.utils.text import slugify
from PIL import Image, ImageDraw

from directory.models import EntityType, VariantKind

DEFAULT_COMPANIES = 2000
DEFAULT_SEED = 42
# A fixed "now": reading the clock would make next year's catalogue differ.
LAST_YEAR = 2024

WHITE = "#FFFFFF"
# Negative versions sit on this; no brand colour is this dark, so nothing vanishes.
NIGHT = "#121417"
INK = "#1D2733"
GREY = "#8A9099"
# Brand colours by family; a logo takes each of its colours from a different family,
# so its shapes never blur into one another.
COLOUR_FAMILIES = (
    ("#C8102E", "#E4002B", "#A6192E"),  # red
    ("#003865", "#004B87", "#003DA5"),  # navy
    ("#0057B8", "#0093B2", "#00A3E0"),  # blue
    ("#00843D", "#2D6A4F", "#007A53"),  # green
    ("#78BE20", "#97D700"),  # lime
    ("#FFB81C", "#F4C300"),  # yellow
    ("#FF8200", "#E35205"),  # orange
    ("#6D2077", "#512D6D"),  # purple
    ("#00B2A9", "#008C95"),  # teal
    ("#C5B783", "#A39161"),  # sand
    ("#D0006F",),  # magenta
)

# Province, then towns in it (the first is the capital).
PROVINCES: dict[str, tuple[str, ...]] = {
    "A Coruña": ("A Coruña", "Santiago de Compostela", "Ferrol"),
    "Álava": ("Vitoria-Gasteiz", "Llodio", "Amurrio"),
    "Albacete": ("Albacete", "Hellín", "Villarrobledo"),
    "Alicante": ("Alicante", "Elche", "Benidorm", "Alcoy"),
    "Almería": ("Almería", "El Ejido", "Níjar"),
    "Asturias": ("Oviedo", "Gijón", "Avilés", "Cangas de Onís"),
    "Ávila": ("Ávila", "Arévalo"),
    "Badajoz": ("Badajoz", "Mérida", "Don Benito"),
    "Barcelona": ("Barcelona", "Sabadell", "Terrassa", "Badalona", "Manresa"),
    "Bizkaia": ("Bilbao", "Getxo", "Barakaldo", "Durango"),
    "Burgos": ("Burgos", "Miranda de Ebro", "Aranda de Duero"),
    "Cáceres": ("Cáceres", "Plasencia", "Trujillo"),
    "Cádiz": ("Cádiz", "Jerez de la Frontera", "Algeciras", "Sanlúcar de Barrameda"),
    "Cantabria": ("Santander", "Torrelavega", "Castro Urdiales"),
    "Castellón": ("Castellón de la Plana", "Vila-real", "Benicàssim"),
    "Ceuta": ("Ceuta",),
    "Ciudad Real": ("Ciudad Real", "Puertollano", "Valdepeñas"),
    "Córdoba": ("Córdoba", "Lucena", "Puente Genil"),
    "Cuenca": ("Cuenca", "Tarancón"),
    "Gipuzkoa": ("Donostia-San Sebastián", "Irun", "Eibar", "Zarautz"),
    "Girona": ("Girona", "Figueres", "Blanes"),
    "Granada": ("Granada", "Motril", "Guadix"),
    "Guadalajara": ("Guadalajara", "Azuqueca de Henares", "Sigüenza"),
    "Huelva": ("Huelva", "Lepe", "Almonte"),
    "Huesca": ("Huesca", "Jaca", "Monzón", "Barbastro"),
    "Illes Balears": ("Palma", "Ibiza", "Maó", "Manacor"),
    "Jaén": ("Jaén", "Linares", "Úbeda", "Baeza"),
    "La Rioja": ("Logroño", "Calahorra", "Haro"),
    "Las Palmas": ("Las Palmas de Gran Canaria", "Arrecife", "Telde"),
    "León": ("León", "Ponferrada", "Astorga"),
    "Lleida": ("Lleida", "Tàrrega", "La Seu d'Urgell"),
    "Lugo": ("Lugo", "Monforte de Lemos", "Viveiro"),
    "Madrid": ("Madrid", "Alcalá de Henares", "Móstoles", "Getafe", "Leganés"),
    "Málaga": ("Málaga", "Marbella", "Antequera", "Ronda", "Vélez-Málaga"),
    "Melilla": ("Melilla",),
    "Murcia": ("Murcia", "Cartagena", "Lorca", "Águilas"),
    "Navarra": ("Pamplona", "Tudela", "Estella-Lizarra"),
    "Ourense": ("Ourense", "Verín", "O Barco de Valdeorras"),
    "Palencia": ("Palencia", "Aguilar de Campoo"),
    "Pontevedra": ("Pontevedra", "Vigo", "Vilagarcía de Arousa"),
    "Salamanca": ("Salamanca", "Béjar", "Ciudad Rodrigo"),
    "Santa Cruz de Tenerife": (
        "Santa Cruz de Tenerife",
        "San Cristóbal de La Laguna",
        "La Orotava",
    ),
    "Segovia": ("Segovia", "Cuéllar"),
    "Sevilla": ("Sevilla", "Dos Hermanas", "Écija", "Utrera"),
    "Soria": ("Soria", "Almazán"),
    "Tarragona": ("Tarragona", "Reus", "Tortosa"),
    "Teruel": ("Teruel", "Alcañiz"),
    "Toledo": ("Toledo", "Talavera de la Reina", "Illescas"),
    "Valencia": ("Valencia", "Gandia", "Torrent", "Sagunto"),
    "Valladolid": ("Valladolid", "Medina del Campo", "Peñafiel"),
    "Zamora": ("Zamora", "Benavente", "Toro"),
    "Zaragoza": ("Zaragoza", "Calatayud", "Ejea de los Caballeros"),
}
# Regional top-level domains some companies also hold.
REGIONAL_TLDS = {
    **dict.fromkeys(("Barcelona", "Girona", "Lleida", "Tarragona"), "cat"),
    **dict.fromkeys(("Álava", "Bizkaia", "Gipuzkoa"), "eus"),
    **dict.fromkeys(("A Coruña", "Lugo", "Ourense", "Pontevedra"), "gal"),
}

SURNAMES = (
    "Núñez", "Peñalver", "Ibáñez", "Muñoz", "Fernández", "García", "Martínez", "López",
    "Sánchez", "Pérez", "Gómez", "Díaz", "Álvarez", "Jiménez", "Ruiz", "Hernández",
    "Domínguez", "Vázquez", "Ramírez", "Gutiérrez", "Castaño", "Cañete", "Ordóñez",
    "Patiño", "Zúñiga", "Montaña", "Peña", "Iglesias", "Ortega", "Rubio", "Marín", "Sáez",
    "Serrano", "Blázquez", "Quiñones", "Beltrán", "Calderón", "Echevarría", "Garmendia",
    "Arrieta", "Etxeberria", "Olaizola", "Ferrer", "Puig", "Vidal", "Soler", "Roig",
    "Otero", "Castro", "Rodríguez", "Mendoza", "Gallego", "Cabañas", "Navarro", "Lozano",
)  # fmt: skip
# "y" turns into "e" before an i sound; second surnames avoid it ("García y Peña").
SECOND_SURNAMES = tuple(surname for surname in SURNAMES if surname[0] not in "IÍY")
ADJECTIVES = (
    "Atlántico", "Mediterráneo", "Cantábrico", "Ibérico", "Peninsular", "Andaluz",
    "Levantino", "Castellano", "Septentrional", "Meridional", "Insular", "Pirenaico",
)  # fmt: skip
SAINTS = (
    "San José", "Santa Teresa", "San Ignacio", "Nuestra Señora del Pilar", "Santa María",
    "San Fernando", "Sagrado Corazón", "San Agustín", "Santiago Apóstol", "Virgen de Begoña",
)  # fmt: skip
TECH_WORDS = ("Onda", "Enlace", "Nexo", "Señal", "Antena", "Conecta", "Pulso", "Óptica")


@dataclass(frozen=True)
class SectorSpec:
    slug: str
    name: str
    weight: int
    entity_type: EntityType
    activity: str  # completes "que se dedica ..."

    patterns: tuple[str, ...]
    products: tuple[str, ...]
    founded_from: int = 1880
    acronyms: float = 0.05  # how often a name also goes by its initials
    # Patterns of private companies within a sector of another kind (an academy in education).
    company_patterns: tuple[str, ...] = ()


# Placeholders: {surname}, {surname2}, {town}, {province}, {adjective}, {saint}, {tech};
# a product pattern may also use {short}, the distinctive word of the company's name.
SECTORS = (
    SectorSpec(
        "banca", "Banca", 4, EntityType.COMPANY,
        "a la banca minorista y la financiación de familias y pymes",
        ("Banco {adjective}", "Banco Nacional", "Caja Rural de {province}", "Banca {surname}",
         "Banco de {town}"),
        ("Tarjeta {short}", "{short} Pay", "Cuenta Nómina {short}"),
        founded_from=1850,
        acronyms=0.5,
    ),
    SectorSpec(
        "seguros", "Seguros", 4, EntityType.COMPANY,
        "a los seguros de hogar, salud y automóvil",
        ("Seguros {surname}", "Mutua {adjective}", "{surname} Correduría de Seguros",
         "Previsión {town}"),
        ("{short} Hogar", "{short} Salud"),
        acronyms=0.5,
    ),
    SectorSpec(
        "telecomunicaciones", "Telecomunicaciones", 4, EntityType.COMPANY,
        "a la fibra óptica, la telefonía móvil y los servicios de internet",
        ("{tech} Telecom", "Telecomunicaciones {province}", "Fibra {town}", "Redes {surname}",
         "{tech} Móvil"),
        ("{short} Fibra", "{short} Móvil", "{short} TV"),
        founded_from=1985,
        acronyms=0.5,
    ),
    SectorSpec(
        "alimentacion", "Alimentación", 9, EntityType.COMPANY,
        "a la elaboración y distribución de alimentos",
        ("Panadería {surname}", "{surname} e Hijos", "Conservas {surname}", "Embutidos {town}",
         "Quesos {town}", "Aceites {surname}", "Turrones {surname}", "Harinera {adjective}",
         "Lácteos {surname}"),
        ("{short} Gourmet", "{short} Tradición", "Selección {short}"),
    ),
    SectorSpec(
        "supermercados", "Supermercados", 4, EntityType.COMPANY,
        "a la distribución alimentaria con una red de tiendas de proximidad",
        ("Supermercados {surname}", "Autoservicio {surname}", "Hipermercados {adjective}",
         "Mercado {town}"),
        ("{short} Fresco", "Marca {short}"),
        founded_from=1950,
    ),
    SectorSpec(
        "energia", "Energía", 4, EntityType.COMPANY,
        "a la generación y comercialización de energía renovable",
        ("Eléctrica {town}", "Energías {adjective}", "Solar {town}", "Gas {province}",
         "Eólica {surname}"),
        ("{short} Luz Verde", "{short} Solar"),
        founded_from=1900,
        acronyms=0.5,
    ),
    SectorSpec(
        "transporte", "Transporte y logística", 6, EntityType.COMPANY,
        "al transporte de viajeros y mercancías",
        ("Transportes {surname}", "Transportes {surname} y {surname2}", "Autocares {surname}",
         "Logística {town}", "Naviera {adjective}", "Mensajería {surname}"),
        ("{short} Exprés", "{short} Carga"),
        founded_from=1920,
    ),
    SectorSpec(
        "hosteleria", "Hostelería y cafeterías", 8, EntityType.COMPANY,
        "a la hostelería y la restauración",
        ("Cafés {surname}", "Cafetería {surname}", "Casa {surname}", "Asador {town}",
         "Restaurante Casa {surname}", "Hostal {town}", "Bodegas {surname}", "Churrería {surname}"),
        ("{short} Café", "Club {short}"),
    ),
    SectorSpec(
        "construccion", "Construcción", 6, EntityType.COMPANY,
        "a la construcción, la rehabilitación de edificios y la obra civil",
        ("Construcciones {surname}", "Hermanos {surname}", "Obras y Reformas {surname}",
         "Áridos {town}", "Promociones {surname}"),
        ("{short} Hogares",),
        founded_from=1940,
    ),
    SectorSpec(
        "salud", "Salud y farmacia", 5, EntityType.COMPANY,
        "a la atención sanitaria y la farmacia",
        ("Farmacia {surname}", "Clínica {surname} y {surname2}", "Laboratorios {surname}",
         "Clínica Dental {surname}", "Ópticas {surname}"),
        ("{short} Cuidados",),
    ),
    SectorSpec(
        "moda", "Textil y moda", 5, EntityType.COMPANY,
        "al diseño y la confección de ropa y calzado",
        ("Textiles {surname}", "Calzados {surname}", "{surname} y {surname2} Moda",
         "Moda {surname}", "Confecciones {town}"),
        ("{short} Kids", "{short} Sport"),
    ),
    SectorSpec(
        "medios", "Medios de comunicación", 3, EntityType.MEDIA,
        "a la información local y regional",
        ("Diario de {province}", "Radio {town}", "Televisión de {province}",
         "El Correo de {town}", "La Voz de {town}", "Revista {adjective}"),
        ("{short} Digital", "{short} Podcast"),
        founded_from=1880,
        acronyms=0.5,
    ),
    SectorSpec(
        "deportes", "Deportes", 3, EntityType.SPORTS_CLUB,
        "al deporte base y la competición",
        ("Club Deportivo {town}", "Real Club {town}", "Club Baloncesto {town}",
         "Club Balonmano {town}", "Unión Deportiva {town}", "Club Náutico {town}"),
        ("{short} Femenino", "Cantera {short}"),
        company_patterns=("Gimnasios {surname}",),
        acronyms=0.5,
    ),
    SectorSpec(
        "educacion", "Educación", 3, EntityType.EDUCATION,
        "a la enseñanza",
        ("Colegio {saint}", "Universidad de {province}", "Instituto {surname}",
         "Escuela de Idiomas {town}", "Conservatorio de {town}"),
        ("Campus {short}",),
        company_patterns=("Academia {surname}", "Autoescuela {surname}"),
        acronyms=0.5,
    ),
    SectorSpec(
        "administracion-publica", "Administración pública", 3, EntityType.PUBLIC_BODY,
        "a la gestión de los servicios públicos",
        ("Ayuntamiento de {town}", "Diputación de {province}",
         "Consorcio de Aguas de {province}", "Patronato de Turismo de {province}"),
        ("Visita {town}", "Agenda Cultural de {town}"),
        founded_from=1850,
        acronyms=0.5,
    ),
    SectorSpec(
        "tercer-sector", "Tercer sector", 2, EntityType.NONPROFIT,
        "a la acción social y el voluntariado",
        ("Fundación {surname}", "Asociación Amigos de {town}",
         "Banco de Alimentos de {province}", "Protectora de Animales de {town}"),
        ("Voluntariado {short}",),
        founded_from=1950,
        acronyms=0.5,
    ),
    SectorSpec(
        "corporaciones", "Colegios profesionales y cámaras", 1, EntityType.OTHER,
        "a la representación de sus miembros",
        ("Colegio Oficial de Arquitectos de {province}", "Colegio de Abogados de {town}",
         "Cámara de Comercio de {town}"),
        ("Formación {short}",),
        founded_from=1880,
        acronyms=0.5,
    ),
)  # fmt: skip

SUBJECTS = {
    EntityType.COMPANY: "una empresa",
    EntityType.PUBLIC_BODY: "una institución pública",
    EntityType.NONPROFIT: "una entidad sin ánimo de lucro",
    EntityType.EDUCATION: "un centro educativo",
    EntityType.SPORTS_CLUB: "un club",
    EntityType.MEDIA: "un medio de comunicación",
    EntityType.OTHER: "una corporación de derecho público",
}
FACTS = (
    "da servicio a toda la provincia de {province}",
    "forma parte del día a día de {town}",
    "ha crecido hasta superar las {people} personas en plantilla",
    "mantiene su sede en el mismo edificio del centro de {town}",
    "colabora con asociaciones y entidades de {province}",
)
# Words an acronym skips: "Caja Rural de Jaén" is CRJ.
MINOR_WORDS = {"de", "del", "la", "las", "el", "los", "y", "e", "a", "o"}


# Drawings. Shapes are in units of a 100-high box; a drawing's scale makes them pixels.


@dataclass(frozen=True)
class Shape:
    """rect: x, y, w, h, radius; circle: cx, cy, r; ring: cx, cy, r, width;
    polygon: x1, y1, x2, y2...; wedge: cx, cy, r, start, end (degrees, clockwise)."""

    kind: Literal["rect", "circle", "ring", "polygon", "wedge"]
    colour: str
    values: tuple[float, ...]


@dataclass(frozen=True)
class Drawing:
    format: Literal["SVG", "PNG"]
    width: float
    height: float
    shapes: tuple[Shape, ...]
    scale: float = 3.0  # pixels per unit, for a PNG


@dataclass
class DemoCatalogue:
    document: dict
    drawings: dict[str, Drawing] = field(default_factory=dict)


def _star(
    cx: float, cy: float, outer: float, inner: float, points: int, turn: float
) -> tuple[float, ...]:
    """A regular polygon when inner == outer, else a star; flat x, y values."""
    values: list[float] = []
    corners = points * (1 if inner == outer else 2)
    for index in range(corners):
        radius = outer if index % 2 == 0 or inner == outer else inner
        angle = math.radians(turn - 90 + 360 * index / corners)
        values += [round(cx + radius * math.cos(angle), 2), round(cy + radius * math.sin(angle), 2)]
    return tuple(values)


def _second(colours: list[str]) -> str:
    # A one-colour mark cuts its inner shape out in white instead.
    return colours[1] if len(colours) > 1 else WHITE


def _badge(rng: random.Random, colours: list[str]) -> list[Shape]:
    points = rng.choice((3, 4, 5, 6, 8))
    inner = 24 if points in (3, 4) else rng.choice((12, 16))
    return [
        Shape("circle", colours[0], (50, 50, 44)),
        Shape("polygon", _second(colours), _star(50, 52, 28, inner, points, 0)),
    ]


def _tile(rng: random.Random, colours: list[str]) -> list[Shape]:
    shapes = [
        Shape("rect", colours[0], (6, 6, 88, 88, rng.choice((0, 12, 22)))),
        Shape("ring", _second(colours), (50, 50, rng.choice((26, 30)), rng.choice((8, 11)))),
    ]
    if len(colours) > 2:
        shapes.append(Shape("circle", colours[2], (50, 50, 8)))
    return shapes


def _stripes(rng: random.Random, colours: list[str]) -> list[Shape]:
    count = rng.choice((3, 4))
    pitch = 72 / count
    thickness = round(pitch * 0.6, 2)
    top = (100 - pitch * (count - 1) - thickness) / 2
    lengths = [80, *(rng.choice((48, 64, 80)) for _ in range(count - 1))]
    return [
        Shape(
            "rect",
            colours[index % len(colours)],
            (10, round(top + index * pitch, 2), length, thickness, thickness / 2),
        )
        for index, length in enumerate(lengths)
    ]


def _pinwheel(rng: random.Random, colours: list[str]) -> list[Shape]:
    blades = rng.choice((3, 4, 6))
    turn = rng.choice((0, 15, 45))
    span = 360 / blades
    return [
        Shape(
            "wedge",
            colours[index % len(colours)],
            (50, 50, 44, turn + index * span, turn + index * span + span * 0.72),
        )
        for index in range(blades)
    ]


def _hexagon(rng: random.Random, colours: list[str]) -> list[Shape]:
    return [
        Shape("polygon", colours[0], _star(50, 50, 46, 46, 6, rng.choice((0, 30)))),
        Shape("circle", _second(colours), (50, 50, rng.choice((14, 18, 22)))),
    ]


def _rings(rng: random.Random, colours: list[str]) -> list[Shape]:
    width = rng.choice((8, 10))
    return [
        Shape("ring", colours[0], (34, 50, 28, width)),
        Shape("ring", colours[-1], (66, 50, 28, width)),
    ]


def _chevrons(rng: random.Random, colours: list[str]) -> list[Shape]:
    count = rng.choice((2, 3))
    tops = (20, 46) if count == 2 else (10, 32, 54)
    return [
        Shape(
            "polygon",
            colours[index % len(colours)],
            (10, top + 26, 50, top, 90, top + 26, 90, top + 38, 50, top + 12, 10, top + 38),
        )
        for index, top in enumerate(tops)
    ]


def _peaks(rng: random.Random, colours: list[str]) -> list[Shape]:
    sun = colours[2] if len(colours) > 2 else colours[-1]
    return [
        Shape("circle", sun, (rng.choice((66, 72)), 30, rng.choice((10, 14)))),
        Shape("polygon", colours[0], (6, 88, 40, 28, 74, 88)),
        Shape("polygon", colours[1 % len(colours)], (46, 88, 70, 50, 94, 88)),
    ]


def _grid(rng: random.Random, colours: list[str]) -> list[Shape]:
    round_cell = rng.randrange(4)
    shapes = []
    for index, (x, y) in enumerate(((8, 8), (52, 8), (8, 52), (52, 52))):
        colour = colours[index % len(colours)]
        if index == round_cell:
            shapes.append(Shape("circle", colour, (x + 20, y + 20, 20)))
        else:
            shapes.append(Shape("rect", colour, (x, y, 40, 40, rng.choice((0, 6)))))
    return shapes


MARKS: tuple[Callable[[random.Random, list[str]], list[Shape]], ...] = (
    _badge, _tile, _stripes, _pinwheel, _hexagon, _rings, _chevrons, _peaks, _grid,
)  # fmt: skip


def _mark(rng: random.Random) -> tuple[str, tuple[Shape, ...]]:
    """A symbol and its main colour."""
    families = rng.sample(COLOUR_FAMILIES, rng.choice((1, 2, 2, 3)))
    colours = [rng.choice(family) for family in families]
    return colours[0], tuple(rng.choice(MARKS)(rng, colours))


def _horizontal(mark: tuple[Shape, ...], name: str, rng: random.Random) -> Drawing:
    """The mark with two bars standing for the name and a tagline: fonts are not guaranteed."""
    name_width = min(max(len(name) * 7, 90), 220)
    tagline_width = round(name_width * rng.uniform(0.45, 0.85), 1)
    wordmark = (
        Shape("rect", INK, (116, 32, name_width, 18, 9)),
        Shape("rect", GREY, (116, 58, tagline_width, 10, 5)),
    )
    return Drawing("SVG", 116 + name_width + 10, 100, mark + wordmark)


def _negative(horizontal: Drawing, brand: str) -> Drawing:
    """The horizontal layout for dark backgrounds: the main colour and text turn white."""
    swap = {brand: WHITE, INK: WHITE, GREY: "#C9CED6", WHITE: NIGHT}
    background = Shape("rect", NIGHT, (0, 0, horizontal.width, horizontal.height, 0))
    shapes = tuple(
        Shape(shape.kind, swap.get(shape.colour, shape.colour), shape.values)
        for shape in horizontal.shapes
    )
    return Drawing("PNG", horizontal.width, horizontal.height, (background, *shapes), scale=1.6)


# Rendering.


def _number(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")


def _on_circle(cx: float, cy: float, r: float, degrees: float) -> tuple[float, float]:
    angle = math.radians(degrees)
    return cx + r * math.cos(angle), cy + r * math.sin(angle)


def _svg_element(shape: Shape) -> str:
    fill = f'fill="{shape.colour}"'
    n = [_number(value) for value in shape.values]
    if shape.kind == "rect":
        return f'<rect x="{n[0]}" y="{n[1]}" width="{n[2]}" height="{n[3]}" rx="{n[4]}" {fill}/>'
    if shape.kind == "circle":
        return f'<circle cx="{n[0]}" cy="{n[1]}" r="{n[2]}" {fill}/>'
    if shape.kind == "ring":
        cx, cy, r, width = shape.values
        # Pillow draws an outline inside its box; a centred stroke on a smaller circle matches.
        return (
            f'<circle cx="{n[0]}" cy="{n[1]}" r="{_number(r - width / 2)}" fill="none" '
            f'stroke="{shape.colour}" stroke-width="{n[3]}"/>'
        )
    if shape.kind == "polygon":
        points = " ".join(f"{x},{y}" for x, y in zip(n[::2], n[1::2], strict=True))
        return f'<polygon points="{points}" {fill}/>'
    cx, cy, r, start, end = shape.values
    x1, y1 = _on_circle(cx, cy, r, start)
    x2, y2 = _on_circle(cx, cy, r, end)
    large = 1 if end - start > 180 else 0
    path = (
        f"M{n[0]} {n[1]}L{_number(x1)} {_number(y1)}"
        f"A{n[2]} {n[2]} 0 {large} 1 {_number(x2)} {_number(y2)}Z"
    )
    return f'<path d="{path}" {fill}/>'


def svg_draw(drawing: Drawing) -> bytes:
    width, height = _number(drawing.width), _number(drawing.height)
    body = "".join(_svg_element(shape) for shape in drawing.shapes)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="{_number(drawing.width * 3)}" height="{_number(drawing.height * 3)}">'
        f"{body}</svg>\n"
    ).encode()


# Drawn at twice the size and scaled down, since Pillow's shapes have no anti-aliasing.
_OVERSAMPLE = 2


def _png_shape(draw: ImageDraw.ImageDraw, shape: Shape, scale: float) -> None:
    v = shape.values
    if shape.kind == "rect":
        x, y, w, h, radius = (value * scale for value in v)
        draw.rounded_rectangle((x, y, x + w, y + h), radius=radius, fill=shape.colour)
    elif shape.kind in ("circle", "ring"):
        cx, cy, r = (value * scale for value in v[:3])
        box = (cx - r, cy - r, cx + r, cy + r)
        if shape.kind == "circle":
            draw.ellipse(box, fill=shape.colour)
        else:
            draw.ellipse(box, outline=shape.colour, width=round(v[3] * scale))
    elif shape.kind == "polygon":
        points = [(x * scale, y * scale) for x, y in zip(v[::2], v[1::2], strict=True)]
        draw.polygon(points, fill=shape.colour)
    else:
        cx, cy, r = (value * scale for value in v[:3])
        draw.pieslice((cx - r, cy - r, cx + r, cy + r), v[3], v[4], fill=shape.colour)


def png_draw(drawing: Drawing) -> bytes:
    size = (round(drawing.width * drawing.scale), round(drawing.height * drawing.scale))
    big = Image.new("RGBA", (size[0] * _OVERSAMPLE, size[1] * _OVERSAMPLE), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    for shape in drawing.shapes:
        _png_shape(draw, shape, drawing.scale * _OVERSAMPLE)
    out = io.BytesIO()
    # reduce() averages premultiplied, so edges keep their colour; a low compression
    # level halves the time for files a few kilobytes larger.
    big.reduce(_OVERSAMPLE).save(out, format="PNG", compress_level=1)
    return out.getvalue()


def file_draw(drawing: Drawing) -> bytes:
    return svg_draw(drawing) if drawing.format == "SVG" else png_draw(drawing)


# The catalogue.


def _acronym(name: str) -> str:
    words = [word for word in name.replace("-", " ").split() if word.lower() not in MINOR_WORDS]
    initials = "".join(word[0] for word in words if word[0].isalpha())
    return unicodedata.normalize("NFKD", initials).encode("ascii", "ignore").decode().upper()


def _unique_slug(text: str, taken: set[str]) -> str:
    base = slugify(text) or "entidad"
    slug, number = base, 1
    while slug in taken:
        number += 1
        slug = f"{base}-{number}"
    taken.add(slug)
    return slug


def _no_progress(items: Iterable, total: int) -> Iterator:
    return iter(items)


class _Builder:
    """Takes every random choice from one generator, in a fixed order, so a seed is a catalogue."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)
        self.company_slugs: set[str] = set()
        self.logo_slugs: set[str] = set()
        self.names: set[str] = set()
        self.drawings: dict[str, Drawing] = {}

    def identity(self) -> tuple[SectorSpec, EntityType, str, dict[str, str]]:
        """A sector, entity type, name and the words the name was made of."""
        rng = self.rng
        sector = rng.choices(SECTORS, weights=[sector.weight for sector in SECTORS])[0]
        province = rng.choice(list(PROVINCES))
        words = {
            "surname": rng.choice(SURNAMES),
            "surname2": rng.choice(SECOND_SURNAMES),
            "town": rng.choice(PROVINCES[province]),
            "province": province,
            "adjective": rng.choice(ADJECTIVES),
            "saint": rng.choice(SAINTS),
            "tech": rng.choice(TECH_WORDS),
        }
        pattern, entity_type = rng.choice(sector.patterns), sector.entity_type
        if sector.company_patterns and rng.random() < 0.3:
            pattern, entity_type = rng.choice(sector.company_patterns), EntityType.COMPANY
        return sector, entity_type, pattern.format(**words), words

    def company(self) -> dict:
        rng = self.rng
        # A few draws keep namesakes rare; the ones left get a numbered slug.
        for _ in range(5):
            sector, entity_type, name, words = self.identity()
            if name not in self.names:
                break
        self.names.add(name)
        province, town = words["province"], words["town"]
        slug = _unique_slug(name, self.company_slugs)
        founded = rng.randint(sector.founded_from, LAST_YEAR - 3)
        acronym = _acronym(name)
        domains = []
        if rng.random() < 0.2:
            domains.append(f"{slug}.com")
        if province in REGIONAL_TLDS and rng.random() < 0.3:
            domains.append(f"{slug}.{REGIONAL_TLDS[province]}")
        # The word that tells the company apart, for product names ("Tarjeta Núñez").
        short = next(
            (
                words[key]
                for key in ("surname", "tech", "adjective", "town", "saint")
                if words[key] in name
            ),
            name,
        )
        return {
            "slug": slug,
            "name": name,
            "alternativeNames": [acronym]
            if len(acronym) > 1 and rng.random() < sector.acronyms
            else [],
            "entityType": entity_type.value,
            "isVerified": rng.random() < 0.35,
            "sector": sector.slug,
            "province": province,
            "about": self.about(name, SUBJECTS[entity_type], sector, words, founded),
            "website": f"https://www.{slug}.es",
            "location": town,
            "foundedYear": str(founded),
            "domains": domains,
            "logos": self.logos(slug, name, sector, words | {"short": short}, founded),
        }

    def about(self, name: str, subject: str, sector: SectorSpec, words: dict, founded: int) -> str:
        text = f"{name} es {subject} con sede en {words['town']} que se dedica {sector.activity}."
        if self.rng.random() < 0.6:
            fact = self.rng.choice(FACTS).format(people=self.rng.randrange(20, 900, 10), **words)
            text += f" Desde {founded} {fact}."
        return text

    def logos(self, slug: str, name: str, sector: SectorSpec, words: dict, founded: int) -> list:
        """Older logos, the current one, perhaps a product's. Every logo slug starts with the
        company's, so seeding with another seed cannot hand a logo to a different company."""
        rng = self.rng
        # Redesigns at least two years apart, so every era spans at least one whole year.
        redesigns = range(founded + 2, LAST_YEAR, 2)
        history = min(rng.choice((1, 1, 2)), len(redesigns)) if rng.random() < 0.25 else 0
        starts = [founded, *sorted(rng.sample(redesigns, history))]
        logos = []
        for index, start in enumerate(starts[:-1]):
            end = starts[index + 1] - 1
            logo = self.logo(f"{slug}-{start}", f"{name} ({start}-{end})", name)
            label = "Logotipo original" if index == 0 else f"Rediseño de {start}"
            logo["era"] = {"from": start, "to": end, "label": label}
            logo["description"] = f"Identidad usada entre {start} y {end}."
            logos.append(logo)
        current = self.logo(slug, name, name)
        current["isCurrent"] = True
        if history:
            current["era"] = {"from": starts[-1], "to": None, "label": f"Desde {starts[-1]}"}
        logos.append(current)
        if rng.random() < 0.1:
            title = rng.choice(sector.products).format(**words)
            product = self.logo(f"{slug}-{title}", title, title)
            product["isProduct"] = True
            product["description"] = f"Marca de producto de {name}."
            logos.append(product)
        return logos

    def logo(self, slug_text: str, title: str, name: str) -> dict:
        slug = _unique_slug(slug_text, self.logo_slugs)
        brand, mark = _mark(self.rng)
        self.drawings[f"files/{slug}.svg"] = Drawing("SVG", 100, 100, mark)
        self.drawings[f"files/{slug}.png"] = Drawing("PNG", 100, 100, mark)
        files = [{"path": f"files/{slug}.svg"}, {"path": f"files/{slug}.png"}]
        variants = []
        if self.rng.random() < 0.2:
            horizontal = _horizontal(mark, name, self.rng)
            self.drawings[f"files/{slug}-h.svg"] = horizontal
            self.drawings[f"files/{slug}-h-neg.png"] = _negative(horizontal, brand)
            variants = [
                {"key": "h", "kind": VariantKind.TYPE.value, "name": "Horizontal", "parent": None},
                {
                    "key": "h-neg",
                    "kind": VariantKind.VERSION.value,
                    "name": "Negativo",
                    "parent": "h",
                },
            ]
            files += [
                {"path": f"files/{slug}-h.svg", "variant": "h"},
                {"path": f"files/{slug}-h-neg.png", "variant": "h-neg"},
            ]
        return {
            "slug": slug,
            "title": title,
            "isCurrent": False,
            "isProduct": False,
            "description": None,
            "variants": variants,
            "files": files,
        }


def catalogue_build(
    *, companies: int = DEFAULT_COMPANIES, seed: int = DEFAULT_SEED
) -> DemoCatalogue:
    """The catalogue document and the drawing of every file it names."""
    builder = _Builder(seed)
    entries = [builder.company() for _ in range(companies)]
    sectors = [{"slug": sector.slug, "name": sector.name} for sector in SECTORS]
    return DemoCatalogue({"sectors": sectors, "companies": entries}, builder.drawings)


def catalogue_write(
    catalogue: DemoCatalogue,
    folder: Path,
    *,
    progress: Callable[[Iterable, int], Iterator] = _no_progress,
) -> Path:
    """Draws the files into `folder` and writes the catalogue beside them; its path."""
    (folder / "files").mkdir(parents=True, exist_ok=True)
    for path, drawing in progress(catalogue.drawings.items(), len(catalogue.drawings)):
        (folder / path).write_bytes(file_draw(drawing))
    target = folder / "catalogue.json"
    target.write_text(json.dumps(catalogue.document, ensure_ascii=False), encoding="utf-8")
    return target
