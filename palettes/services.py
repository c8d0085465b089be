"""Writes of palettes. The per-account limit holds under concurrency."""

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from accounts.models import User
from directory.catalogue.models import Company
from palettes.models import MAX_PALETTES_PER_ACCOUNT, Palette


class PaletteLimitReached(Exception):
    @staticmethod
    def message() -> str:
        # The API's text, in the language of the request (English under /v1/public).
        return gettext("The account already has %(max)s palettes; delete one first.") % {
            "max": MAX_PALETTES_PER_ACCOUNT
        }


def palette_create(
    *,
    owner: User,
    name: str,
    type: str,
    colors: list | dict,
    source: str,
    is_public: bool,
    company: Company | None,
) -> Palette:
    with transaction.atomic():
        # The owner's row is the lock: two creates at 99 palettes count one after the other.
        list(User.objects.select_for_update().filter(pk=owner.pk).values_list("pk", flat=True))
        if Palette.objects.filter(owner=owner).count() >= MAX_PALETTES_PER_ACCOUNT:
            raise PaletteLimitReached
        now = timezone.now()
        return Palette.objects.create(
            owner=owner,
            name=name,
            type=type,
            colors=colors,
            source=source,
            is_public=is_public,
            company=company,
            created_at=now,
            updated_at=now,
        )


def palette_create_from_input(*, owner: User, params: dict, company: Company | None) -> Palette:
    """palette_create with the validated body of POST /palettes (PaletteCreateInputSerializer),
    which the website's forms validate too."""
    return palette_create(
        owner=owner,
        name=params["name"],
        type=params["type"],
        colors=params["colors"],
        source=params["source"],
        is_public=params["isPublic"],
        company=company,
    )


def palette_update(*, palette: Palette, changes: dict[str, Any]) -> Palette:
    """Applies already validated changes (model field names) and stamps updated_at."""
    for field, value in changes.items():
        setattr(palette, field, value)
    palette.updated_at = timezone.now()
    palette.save(update_fields=[*changes, "updated_at"])
    return palette


def palette_delete(*, palette: Palette) -> None:
    palette.delete()
