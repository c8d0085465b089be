"""What the demo catalogue's companies are made of: provinces and their towns, surnames
and words for names, sectors with their naming patterns, and sentences for their
descriptions. The places are Spain's; the companies are invented (directory/demo.py).
"""

from dataclasses import dataclass

from directory.models import EntityType

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
