"""Reads of palettes, each scoped to who may see them."""

import uuid

from django.db.models import Q, QuerySet

from accounts.models import User
from palettes.models import Palette


def _uuid(text: str) -> uuid.UUID | None:
    try:
        return uuid.UUID(text)
    except ValueError:
        return None


def palettes_of(owner: User, *, type: str | None = None) -> QuerySet[Palette]:
    palettes = Palette.objects.filter(owner=owner).select_related("company")
    return palettes.filter(type=type) if type else palettes


def palette_count(owner: User) -> int:
    return Palette.objects.filter(owner=owner).count()


def palette_readable_by(user: User, palette_id: str) -> Palette | None:
    """The user's own palette, or anybody's public one; None for everything else,
    including a private palette of another account (its existence is never revealed).
    An anonymous visitor of the website sees public palettes only."""
    pk = _uuid(palette_id)
    if pk is None:
        return None
    visible = Q(is_public=True)
    if user.is_authenticated:
        visible |= Q(owner=user)
    return Palette.objects.select_related("company").filter(visible, pk=pk).first()


def palette_of(owner: User, palette_id: str) -> Palette | None:
    """One of the owner's palettes: the only ones they may change or delete."""
    pk = _uuid(palette_id)
    if pk is None:
        return None
    return palettes_of(owner).filter(pk=pk).first()
