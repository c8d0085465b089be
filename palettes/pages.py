"""The website's palette pages: a person's palettes and gradients in the account area,
and the page of a public one. The same model, rules and services as the API: what is
made here shows there, and the other way round."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from directory.catalogue.selectors import logo_find
from directory.colors.contrast import swatches
from directory.pages import logo_page_refused
from palettes.forms import PaletteForm, flat_errors
from palettes.models import MAX_PALETTES_PER_ACCOUNT, Palette, PaletteSource, PaletteType
from palettes.selectors import palette_of, palette_readable_by, palettes_of
from palettes.serializers import PaletteCreateInputSerializer
from palettes.services import (
    PaletteLimitReached,
    palette_create_from_input,
    palette_delete,
    palette_update,
)
from website.csrf import REFUSAL, csrf_refused, refused_form, renders_csrf_refusal


def palette_preview(palette: Palette) -> dict:
    """What the inline SVG of a palette draws: bands of equal width (in a 0-100 box),
    or a gradient's stops, kind and angle (0 points up, 90 right, as in CSS)."""
    if palette.type == PaletteType.PALETTE:
        width = 100 / len(palette.colors)
        bands = [(index * width, width, code) for index, code in enumerate(palette.colors)]
        return {"bands": bands}
    gradient = palette.colors
    return {
        "gradient": True,
        "radial": gradient["kind"] == "radial",
        "rotate": gradient["angle"] - 90,
        "stops": [(stop["position"], stop["hex"]) for stop in gradient["stops"]],
    }


def _with_previews(palettes) -> list[Palette]:
    palettes = list(palettes)
    for palette in palettes:
        palette.preview = palette_preview(palette)
    return palettes


def _list_page(request, form: PaletteForm, *, status: int = 200, problem: str | None = None):
    palettes = _with_previews(palettes_of(request.user))
    context = {
        "palettes": palettes,
        "form": form,
        "max": MAX_PALETTES_PER_ACCOUNT,
        "problem": problem,
    }
    return render(request, "palettes/list.html", context, status=status)


@renders_csrf_refusal
@login_required
def palettes_page(request):
    if request.method != "POST":
        return _list_page(request, PaletteForm())
    if csrf_refused(request):
        form = refused_form(request, PaletteForm)
        return _list_page(request, form, status=403)
    form = PaletteForm(request.POST)
    if not form.is_valid():
        return _list_page(request, form, status=400)
    try:
        palette = palette_create_from_input(owner=request.user, params=form.validated, company=None)
    except PaletteLimitReached as refusal:
        form.add_error(None, refusal.message())
        return _list_page(request, form, status=409)
    messages.success(request, gettext("Saved “%(name)s”.") % {"name": palette.name})
    return redirect("account-palettes")


def _own(request, palette_id: str) -> Palette:
    # Someone else's palette, a deleted one and a malformed id all look the same: 404.
    palette = palette_of(request.user, palette_id)
    if palette is None:
        raise Http404
    return palette


@renders_csrf_refusal
@login_required
def palette_edit_page(request, palette_id: str):
    palette = _own(request, palette_id)
    palette.preview = palette_preview(palette)
    if request.method != "POST":
        form = PaletteForm(palette=palette)
        return render(request, "palettes/edit.html", {"palette": palette, "form": form})
    if csrf_refused(request):
        form = refused_form(request, PaletteForm, palette=palette)
        return render(request, "palettes/edit.html", {"palette": palette, "form": form}, status=403)
    form = PaletteForm(request.POST, palette=palette)
    if not form.is_valid():
        context = {"palette": palette, "form": form}
        return render(request, "palettes/edit.html", context, status=400)
    palette = palette_update(palette=palette, changes=form.changes())
    messages.success(request, gettext("Saved “%(name)s”.") % {"name": palette.name})
    return redirect("account-palettes")


@renders_csrf_refusal
@login_required
@require_POST
def palette_visibility_page(request, palette_id: str):
    palette = _own(request, palette_id)
    if csrf_refused(request):
        return _list_page(request, PaletteForm(), status=403, problem=REFUSAL)
    palette = palette_update(palette=palette, changes={"is_public": not palette.is_public})
    text = (
        gettext("“%(name)s” is public now.")
        if palette.is_public
        else gettext("“%(name)s” is private now.")
    )
    messages.success(request, text % {"name": palette.name})
    return redirect("account-palettes")


@renders_csrf_refusal
@login_required
@require_POST
def palette_delete_page(request, palette_id: str):
    palette = _own(request, palette_id)
    if csrf_refused(request):
        return _list_page(request, PaletteForm(), status=403, problem=REFUSAL)
    name = palette.name
    palette_delete(palette=palette)
    messages.success(request, gettext("Deleted “%(name)s”.") % {"name": name})
    return redirect("account-palettes")


def palette_public_page(request, palette_id: str):
    """A public palette for anyone; a private one for its owner only (404 for others)."""
    palette = palette_readable_by(request.user, palette_id)
    if palette is None:
        raise Http404
    palette.preview = palette_preview(palette)
    codes = palette.colors if palette.type == PaletteType.PALETTE else None
    if codes is None:
        codes = [stop["hex"] for stop in palette.colors["stops"]]

    context = {
        "palette": palette,
        "swatches": swatches(list(dict.fromkeys(codes))),
        "mine": palette.owner_id == request.user.pk,
    }
    return render(request, "palettes/public.html", context)


@renders_csrf_refusal
@login_required
@require_POST
def palette_from_logo_page(request, slug: str):
    """A logo's colours saved as the person's palette (source LOGO) in one click."""
    logo = logo_find(id_or_slug=slug)
    if logo is None:
        raise Http404
    if csrf_refused(request):
        return logo_page_refused(request, logo)
    body = {
        "type": PaletteType.PALETTE,
        "name": f"{logo.company.name} · {logo.title}"[:60],
        "colors": logo.color_palette if logo.colors_computed_at else [],
        "source": PaletteSource.LOGO,
        "companyId": str(logo.company_id),
    }
    serializer = PaletteCreateInputSerializer(data=body)
    if not serializer.is_valid():
        for message in flat_errors(serializer.errors):
            messages.error(request, message)
        return redirect("logo-page", slug=logo.slug)
    try:
        palette = palette_create_from_input(
            owner=request.user, params=serializer.validated_data, company=logo.company
        )
    except PaletteLimitReached as refusal:
        messages.error(request, refusal.message())
        return redirect("logo-page", slug=logo.slug)
    messages.success(
        request,
        gettext("The colours are saved as the palette “%(name)s”: rename or change it here.")
        % {"name": palette.name},
    )
    return redirect("account-palette", palette_id=palette.pk)
