import uuid

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from directory.catalogue.models import Company

MAX_PALETTES_PER_ACCOUNT = 100


class PaletteType(models.TextChoices):
    PALETTE = "PALETTE", "Palette"
    GRADIENT = "GRADIENT", "Gradient"


class PaletteSource(models.TextChoices):
    GENERATED = "GENERATED", "Generated"
    IMAGE = "IMAGE", "From an image"
    LOGO = "LOGO", "From a logo"
    MANUAL = "MANUAL", "Manual"


class GradientKind(models.TextChoices):
    LINEAR = "linear", "Linear"
    RADIAL = "radial", "Radial"


class Palette(models.Model):
    """A person's palette (a list of colours) or gradient (kind, angle and stops).

    `colors` holds either shape as JSON, normalised (upper-case #RRGGBB) and
    returned as stored; the database checks that the shape matches the type.
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="palettes"
    )
    name = models.CharField(max_length=60)
    type = models.CharField(max_length=8, choices=PaletteType.choices)
    colors = models.JSONField()
    source = models.CharField(
        max_length=9, choices=PaletteSource.choices, default=PaletteSource.MANUAL
    )
    is_public = models.BooleanField(default=False)
    company = models.ForeignKey(
        Company, on_delete=models.SET_NULL, null=True, blank=True, related_name="palettes"
    )
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["owner", "-created_at"], name="palette_owner_recent")]
        constraints = [
            models.CheckConstraint(condition=Q(name__regex=r"\S"), name="palette_name_not_blank"),
            models.CheckConstraint(
                condition=Q(type__in=PaletteType.values), name="palette_type_known"
            ),
            models.CheckConstraint(
                condition=Q(source__in=PaletteSource.values), name="palette_source_known"
            ),
            # A PALETTE's colours are a list, a GRADIENT's an object.
            models.CheckConstraint(
                condition=(
                    Q(type=PaletteType.PALETTE, colors__0__isnull=False)
                    | Q(type=PaletteType.GRADIENT, colors__has_keys=["kind", "angle", "stops"])
                ),
                name="palette_colors_match_type",
            ),
        ]

    def __str__(self) -> str:
        return self.name
