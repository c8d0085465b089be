"""The catalogue: sectors, companies, their logos, variants, files and domains.

Search reads a precomputed search document per company and logo (docs/search.md); the
database keeps it current: a generated column for a company's names, a trigger for a
logo's copy of its company's name. The SQL behind both lives in directory/sql/.
"""

import re
import uuid
from urllib.parse import urlsplit

import idna
from django.contrib.postgres.fields import ArrayField
from django.contrib.postgres.indexes import GinIndex, OpClass
from django.core.exceptions import ValidationError
from django.core.files.storage import storages
from django.db import models
from django.db.models import F, Func, Q
from django.db.models.functions import Length, Lower
from publicsuffixlist import PublicSuffixList


class EntityType(models.TextChoices):
    COMPANY = "COMPANY"
    PUBLIC_BODY = "PUBLIC_BODY"
    NONPROFIT = "NONPROFIT"
    EDUCATION = "EDUCATION"
    SPORTS_CLUB = "SPORTS_CLUB"
    POLITICAL_PARTY = "POLITICAL_PARTY"
    MEDIA = "MEDIA"
    OTHER = "OTHER"


class VariantKind(models.TextChoices):
    TYPE = "TYPE"
    VERSION = "VERSION"


class FileFormat(models.TextChoices):
    """In the order the API lists a logo's formats."""

    SVG = "SVG"
    PNG = "PNG"
    PDF = "PDF"
    AI = "AI"
    EPS = "EPS"
    ZIP = "ZIP"


FORMAT_ORDER = {value: index for index, value in enumerate(FileFormat.values)}


class Fold(Func):
    """Lower case without accents, the same SQL function the search compares with."""

    function = "directory_fold"
    output_field = models.TextField()


class DocWords(Func):
    """The words of a search document, as search finds a typo correction in it:
    string_to_array(search_doc, ' ') (directory/sql/functions/directory_search_plan.sql)."""

    template = "string_to_array(%(expressions)s, ' ')"
    output_field = ArrayField(models.TextField())


def preview_storage():
    return storages["previews"]


def asset_upload_to(asset: "Asset", filename: str) -> str:
    # The stored name is ours; a client's or a catalogue's file name never reaches storage.
    return f"logos/{asset.logo_id}/{uuid.uuid4().hex}.{asset.format.lower()}"


class Sector(models.Model):
    slug = models.SlugField(max_length=100, unique=True)
    name = models.CharField(max_length=100)
    name_fold = models.GeneratedField(
        expression=Fold(F("name")), output_field=models.TextField(), db_persist=True
    )

    class Meta:
        ordering = ["name"]
        indexes = [models.Index(fields=["name_fold"], name="directory_sector_name_fold")]

    def __str__(self) -> str:
        return self.name


class Company(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    slug = models.SlugField(max_length=255, unique=True)
    name = models.CharField(max_length=255)
    alternative_names = ArrayField(models.CharField(max_length=255), default=list, blank=True)
    entity_type = models.CharField(
        max_length=20, choices=EntityType.choices, default=EntityType.COMPANY
    )
    is_verified = models.BooleanField(default=False)
    sector = models.ForeignKey(
        Sector, null=True, blank=True, on_delete=models.SET_NULL, related_name="companies"
    )
    province = models.CharField(max_length=120, null=True, blank=True)
    about = models.TextField(null=True, blank=True)
    website = models.URLField(max_length=500, null=True, blank=True)
    location = models.CharField(max_length=255, null=True, blank=True)
    founded_year = models.CharField(max_length=16, null=True, blank=True)
    # Kept equal to the logo flagged is_current by directory.editing.services.logo_make_current;
    # a composite foreign key (migration 0001) makes it a logo of this company.
    current_logo = models.ForeignKey(
        "Logo", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    name_fold = models.GeneratedField(
        expression=Fold(F("name")), output_field=models.TextField(), db_persist=True
    )
    province_fold = models.GeneratedField(
        expression=Fold(F("province")), output_field=models.TextField(), db_persist=True
    )
    # The name and alternative names as search matches them
    # (directory/sql/functions/directory_search_doc.sql).
    search_doc = models.GeneratedField(
        expression=Func(F("name"), F("alternative_names"), function="directory_search_doc"),
        output_field=models.TextField(),
        db_persist=True,
    )

    class Meta:
        ordering = ["name_fold", "id"]
        verbose_name_plural = "companies"
        indexes = [
            # fastupdate off: every search would scan the index's pending list, which
            # only a vacuum or 4 MB of entries empties.
            GinIndex(
                OpClass(F("search_doc"), name="gin_trgm_ops"),
                name="directory_company_search",
                fastupdate=False,
            ),
            # The words of the document: a typo correction is a whole word, which this
            # finds in one probe, where the trigram index takes a scan per correction
            # (a word of four letters can have thirty-six).
            GinIndex(
                DocWords(F("search_doc")), name="directory_company_search_words", fastupdate=False
            ),
            # With the trigram index, the rows of one range of document lengths: how a
            # one-word search reads its page (directory_search.sql).
            models.Index(Length("search_doc"), name="directory_company_search_len"),
            models.Index(fields=["name_fold", "id"], name="directory_company_name"),
            models.Index(fields=["province_fold", "name_fold"], name="directory_company_prov"),
            models.Index(fields=["sector", "name_fold"], name="directory_company_sector"),
        ]

    def __str__(self) -> str:
        return self.name


class Logo(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    slug = models.SlugField(max_length=255, unique=True)
    title = models.CharField(max_length=255)
    company = models.ForeignKey(Company, on_delete=models.CASCADE, related_name="logos")
    is_current = models.BooleanField(default=False)
    is_product = models.BooleanField(default=False)
    era_from = models.SmallIntegerField(null=True, blank=True)
    era_to = models.SmallIntegerField(null=True, blank=True)
    era_label = models.CharField(max_length=100, null=True, blank=True)
    description = models.TextField(null=True, blank=True)
    color_palette = ArrayField(models.CharField(max_length=7), default=list, blank=True)
    # When color_palette was last read from the logo's main file; null: not yet (pending).
    colors_computed_at = models.DateTimeField(null=True, blank=True, editable=False)
    download_count = models.PositiveIntegerField(default=0)
    preview = models.FileField(storage=preview_storage, null=True, blank=True, max_length=255)
    # The preview waits for the import's derived pass (directory/importing/derived.py).
    preview_pending = models.BooleanField(default=False, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    title_fold = models.GeneratedField(
        expression=Fold(F("title")), output_field=models.TextField(), db_persist=True
    )
    # Title and company name as search matches them, like Company.search_doc. Written
    # by a trigger (directory_logo_search_doc), since it copies another table's column.
    search_doc = models.TextField(default="", editable=False)

    class Meta:
        ordering = ["-is_current", "title_fold", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["company"],
                condition=Q(is_current=True),
                name="directory_logo_one_current_per_company",
            ),
            models.UniqueConstraint(fields=["id", "company"], name="directory_logo_id_company"),
            models.CheckConstraint(
                condition=Q(era_from__isnull=True)
                | Q(era_to__isnull=True)
                | Q(era_from__lte=F("era_to")),
                name="directory_logo_era_from_lte_to",
            ),
        ]
        indexes = [
            # fastupdate off, like directory_company_search: downloads keep updating logos.
            GinIndex(
                OpClass(F("search_doc"), name="gin_trgm_ops"),
                name="directory_logo_search",
                fastupdate=False,
            ),
            GinIndex(
                DocWords(F("search_doc")), name="directory_logo_search_words", fastupdate=False
            ),
            models.Index(Length("search_doc"), name="directory_logo_search_len"),
            models.Index(fields=["-is_current", "title_fold", "id"], name="directory_logo_order"),
        ]

    def __str__(self) -> str:
        return self.title


class Variant(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    logo = models.ForeignKey(Logo, on_delete=models.CASCADE, related_name="variants")
    key = models.SlugField(max_length=120, help_text="Stable key of the variant within its logo.")
    kind = models.CharField(max_length=8, choices=VariantKind.choices)
    name = models.CharField(max_length=120)
    parent = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.CASCADE, related_name="children"
    )
    preview = models.FileField(storage=preview_storage, null=True, blank=True, max_length=255)
    preview_pending = models.BooleanField(default=False, editable=False)

    class Meta:
        ordering = ["kind", "name", "id"]
        constraints = [
            models.UniqueConstraint(fields=["logo", "key"], name="directory_variant_key"),
            models.CheckConstraint(
                condition=Q(kind=VariantKind.VERSION) | Q(parent__isnull=True),
                name="directory_variant_only_versions_have_parent",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class Asset(models.Model):
    """One stored file of a logo, in one format, of the main variant or of one variant."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    logo = models.ForeignKey(Logo, on_delete=models.CASCADE, related_name="assets")
    variant = models.ForeignKey(
        Variant, null=True, blank=True, on_delete=models.CASCADE, related_name="assets"
    )
    format = models.CharField(max_length=4, choices=FileFormat.choices)
    size = models.PositiveBigIntegerField()
    content_type = models.CharField(max_length=100)
    file = models.FileField(upload_to=asset_upload_to, max_length=255)
    sha256 = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["logo", "variant", "format"]
        constraints = [
            models.UniqueConstraint(
                fields=["logo", "variant", "format"],
                nulls_distinct=False,
                name="directory_asset_one_per_format",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.format} file {self.sha256[:12]}"


_DOMAIN = re.compile(r"^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$")
# A pasted address: http(s), a colon and however many slashes survived the trip.
_WEB_SCHEME = re.compile(r"^https?:/*", re.IGNORECASE)


def validate_domain(value: str) -> None:
    if not _DOMAIN.match(value):
        raise ValidationError(f"{value!r} is not a domain name such as example.com")


def is_domain(value: str) -> bool:
    """Whether a normalised value is a domain name as the catalogue stores them."""
    return bool(_DOMAIN.match(value))


def normalise_domain(value: str) -> str:
    """How domains are stored, compared and looked up: the host alone (a pasted address
    such as https://www.acme.es/contacto gives acme.es), lower case, without a trailing
    dot or a leading "www.", an internationalised name in its ASCII (punycode) form.

    The one normalisation of the catalogue's domains: the import, the admin, the domain
    list, the domain lookup and the Logo Link identifier all go through it. Whatever it
    gives still has to pass validate_domain (or is_domain) to be a domain; "" when there
    is no host at all.
    """
    text = _WEB_SCHEME.sub("", value.strip())
    try:
        host = urlsplit(f"//{text}").hostname or ""
    except ValueError:  # an unclosed [ of an IPv6 address, a bad port
        return ""
    host = host.rstrip(".").removeprefix("www.")
    try:
        # UTS 46 maps case and width as browsers do; IDNA 2008 gives the xn-- labels.
        return idna.encode(host, uts46=True).decode("ascii")
    except (idna.IDNAError, UnicodeError):
        return host  # not a valid name: left for the validation to refuse


_public_suffixes = None


def registered_domain(domain: str) -> str | None:
    """The part of a normalised domain its owner registered (tienda.acme.es: acme.es;
    shop.acme.com.es: acme.com.es), by the Public Suffix List that the pinned
    publicsuffixlist package ships (read offline, never downloaded); None for a public
    suffix itself (com.es)."""
    global _public_suffixes
    if _public_suffixes is None:
        _public_suffixes = PublicSuffixList()
    return _public_suffixes.privatesuffix(domain)


def domain_and_parents(domain: str) -> list[str]:
    """A normalised domain, then each parent down to its registered domain, nearest
    first: what a lookup tries (a.b.acme.es: a.b.acme.es, b.acme.es, acme.es)."""
    registered = registered_domain(domain)
    candidates = [domain]
    if registered is None or not domain.endswith("." + registered):
        return candidates
    labels = domain[: -len(registered) - 1].split(".")
    candidates += [".".join([*labels[index:], registered]) for index in range(1, len(labels))]
    candidates.append(registered)
    return candidates


class Domain(models.Model):
    """A domain a company uses besides its website's host, kept by staff."""

    domain = models.CharField(max_length=253, unique=True, validators=[validate_domain])
    company = models.ForeignKey(Company, on_delete=models.CASCADE, related_name="domains")

    class Meta:
        ordering = ["domain"]
        constraints = [
            models.CheckConstraint(
                condition=Q(domain=Lower("domain")), name="directory_domain_lower_case"
            ),
        ]

    def __str__(self) -> str:
        return self.domain
