"""The demo catalogue: invented companies of Spain, with logos drawn from simple shapes.

Everything comes from one random.Random(seed) and no clock, so a seed always
gives the same catalogue, byte for byte, and seeding twice imports as unchanged.
The catalogue is a dict in the import's JSON format (directory/importing/importer.py);
the files it names are described by Drawing values and drawn on demand.
"""

import json
import random
import unicodedata
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from django.utils.text import slugify

from common.parallel import parallel_map
from directory.catalogue.models import EntityType, VariantKind
from directory.demo.demo_logos import (
    Drawing,
    file_draw,
    horizontal_version,
    logo_mark,
    negative_version,
)
from directory.demo.demo_names import (
    ADJECTIVES,
    FACTS,
    MINOR_WORDS,
    PROVINCES,
    REGIONAL_TLDS,
    SAINTS,
    SECOND_SURNAMES,
    SECTORS,
    SUBJECTS,
    SURNAMES,
    TECH_WORDS,
    SectorSpec,
)

DEFAULT_COMPANIES = 2000
DEFAULT_SEED = 42
# A fixed "now": reading the clock would make next year's catalogue differ.
LAST_YEAR = 2024


@dataclass
class DemoCatalogue:
    document: dict
    drawings: dict[str, Drawing] = field(default_factory=dict)


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
        brand, mark = logo_mark(self.rng)
        self.drawings[f"files/{slug}.svg"] = Drawing("SVG", 100, 100, mark)
        self.drawings[f"files/{slug}.png"] = Drawing("PNG", 100, 100, mark)
        files = [{"path": f"files/{slug}.svg"}, {"path": f"files/{slug}.png"}]
        variants = []
        if self.rng.random() < 0.2:
            horizontal = horizontal_version(mark, name, self.rng)
            self.drawings[f"files/{slug}-h.svg"] = horizontal
            self.drawings[f"files/{slug}-h-neg.png"] = negative_version(horizontal, brand)
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
    """Draws the files into `folder` and writes the catalogue beside them; its path.

    A file already in the folder is kept: a seed always draws the same bytes, and each
    file is written under a temporary name and then renamed, so a file there is whole.
    Drawing into the same folder again (scripts/run.sh's .local/demo-*) draws only what
    a stopped run left undrawn.
    """
    (folder / "files").mkdir(parents=True, exist_ok=True)
    missing = {
        path: drawing
        for path, drawing in catalogue.drawings.items()
        if not (folder / path).is_file()
    }
    drawn = parallel_map(file_draw, missing.values(), window=256)
    for path, (_, data) in progress(zip(missing, drawn, strict=True), len(missing)):
        partial = folder / f"{path}.partial"
        partial.write_bytes(data)
        partial.replace(folder / path)
    target = folder / "catalogue.json"
    partial = folder / "catalogue.json.partial"
    partial.write_text(json.dumps(catalogue.document, ensure_ascii=False), encoding="utf-8")
    partial.replace(target)
    return target
