"""What the demo catalogue's companies are made of: provinces and their towns, surnames
and words for names, sectors with their naming patterns, and sentences for their
descriptions, read from directory/demo/demo_names.toml. The places are Spain's; the companies
are invented (directory/demo/catalogue.py).
"""

import tomllib
from dataclasses import dataclass
from pathlib import Path

from directory.catalogue.models import EntityType

DATA = Path(__file__).with_name("demo_names.toml")


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


def _sector(row: dict) -> SectorSpec:
    tuples = {
        key: tuple(row[key]) for key in ("patterns", "products", "company_patterns") if key in row
    }
    return SectorSpec(**{**row, **tuples, "entity_type": EntityType[row["entity_type"]]})


_DATA = tomllib.loads(DATA.read_text(encoding="utf-8"))

# Province, then towns in it (the first is the capital).
PROVINCES: dict[str, tuple[str, ...]] = {
    province: tuple(towns) for province, towns in _DATA["provinces"].items()
}
# Regional top-level domains some companies also hold, by province.
REGIONAL_TLDS: dict[str, str] = {
    province: tld for tld, provinces in _DATA["regional_tlds"].items() for province in provinces
}
SURNAMES: tuple[str, ...] = tuple(_DATA["surnames"])
# "y" turns into "e" before an i sound; second surnames avoid it ("García y Peña").
SECOND_SURNAMES = tuple(surname for surname in SURNAMES if surname[0] not in "IÍY")
ADJECTIVES: tuple[str, ...] = tuple(_DATA["adjectives"])
SAINTS: tuple[str, ...] = tuple(_DATA["saints"])
TECH_WORDS: tuple[str, ...] = tuple(_DATA["tech_words"])
SECTORS: tuple[SectorSpec, ...] = tuple(_sector(row) for row in _DATA["sectors"])
SUBJECTS: dict[EntityType, str] = {
    EntityType[kind]: subject for kind, subject in _DATA["subjects"].items()
}
FACTS: tuple[str, ...] = tuple(_DATA["facts"])
# Words an acronym skips: "Caja Rural de Jaén" is CRJ.
MINOR_WORDS: frozenset[str] = frozenset(_DATA["minor_words"])
