"""The staff back office for the catalogue.

Thin by design: searching goes through directory.search.selectors (the API's matching),
and every write with a consequence beyond its own row (the current logo, files,
previews) goes through directory.editing.services.
"""

from collections import Counter
from collections.abc import Callable
from functools import partial

from django.contrib import admin, messages
from django.contrib.admin.views.main import ORDER_VAR
from django.db import models, transaction
from django.db.models import Count, Func, IntegerField, JSONField, TextField, Value
from django.db.models.functions import Cast

from directory.catalogue.models import Asset, Company, Domain, Logo, Sector, Variant
from directory.catalogue.selectors import count_per_row, with_summary_fields
from directory.editing.forms import DomainForm, LogoAdminForm, VariantInlineFormSet
from directory.editing.services import (
    asset_attach,
    asset_delete,
    file_store,
    logo_create,
    logo_make_current,
)
from directory.search.embeddings import company_embedding_stale
from directory.search.selectors import clean_term, company_page, logo_page

LIST_PER_PAGE = 50

# Staff search lists at most this many of the engine's best matches (20 pages), as
# Elasticsearch's max_result_window bounds a search: a term matching a fifth of the
# catalogue ("ria") is no way to find a company. The list's queries grow with it: at
# 100,000 companies, "ria" (22,569 matches) took 1.8 s to list with 10,000, 0.34 s with
# 1,000, against 0.15 s for the list without a term.
MATCHES_LISTED = 1_000


class SearchThroughDirectory:
    """Admin search with the API's search (directory/search/selectors.py): the page function's
    best matches (at most MATCHES_LISTED), best first unless staff sorted by a column,
    within the list's filters."""

    search_page: Callable  # directory.search.selectors.company_page or logo_page, unfiltered
    # Not "N results (M total)": that counts the whole catalogue on every search.
    show_full_result_count = False

    def get_search_results(self, request, queryset, search_term):
        term = clean_term(search_term)
        if not term:
            return queryset, False
        rows, total = self.search_page(term=term, offset=0, limit=MATCHES_LISTED)
        ids = [row["id"] for row in rows]
        if total > len(ids) and request.resolver_match.url_name.endswith("_changelist"):
            messages.warning(
                request,
                f"{total:,} {self.opts.verbose_name_plural} match; the best {len(ids):,} are"
                " listed. A longer term finds fewer.",
            )
        found = queryset.filter(pk__in=ids)
        if request.GET.get(ORDER_VAR):
            return found, False
        # The engine's order, by each row's place in it.
        place = Func(
            Value({pk: n for n, pk in enumerate(ids)}, output_field=JSONField()),
            Cast("pk", TextField()),
            function="jsonb_extract_path_text",
        )
        return found.order_by(Cast(place, IntegerField())), False


@admin.register(Sector)
class SectorAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "company_count"]
    list_per_page = LIST_PER_PAGE
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(company_count=Count("companies"))

    @admin.display(description="Companies", ordering="company_count")
    def company_count(self, sector):
        return sector.company_count


class LogoInline(admin.TabularInline):
    model = Logo
    fields = ["title", "slug", "is_current", "is_product", "era_from", "era_to", "era_label"]
    readonly_fields = ["is_current"]
    extra = 0
    show_change_link = True


class DomainInline(admin.TabularInline):
    model = Domain
    form = DomainForm
    extra = 0


@admin.register(Company)
class CompanyAdmin(SearchThroughDirectory, admin.ModelAdmin):
    search_page = staticmethod(partial(company_page, sector=None, province=None))
    list_display = [
        "name",
        "slug",
        "sector",
        "province",
        "entity_type",
        "is_verified",
        "logo_count",
        "current_logo",
    ]
    list_filter = ["entity_type", "is_verified", "sector"]
    list_per_page = LIST_PER_PAGE
    # Only shows the search box (and enables autocompletes): get_search_results decides.
    search_fields = ["name"]
    prepopulated_fields = {"slug": ["name"]}
    fields = [
        "name",
        "slug",
        "alternative_names",
        "entity_type",
        "is_verified",
        "sector",
        "province",
        "location",
        "founded_year",
        "website",
        "about",
        "current_logo",
        "created_at",
        "updated_at",
    ]
    # current_logo follows the logo flagged current: change it with "Make current" on a logo.
    readonly_fields = ["current_logo", "created_at", "updated_at"]
    inlines = [LogoInline, DomainInline]
    formfield_overrides = {models.URLField: {"assume_scheme": "https"}}

    def get_queryset(self, request):
        return with_summary_fields(super().get_queryset(request))

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        company_embedding_stale(company_ids=[obj.pk])

    @admin.display(description="Logos", ordering="logo_count")
    def logo_count(self, company):
        return company.logo_count or 0


class VariantInline(admin.TabularInline):
    model = Variant
    formset = VariantInlineFormSet
    fields = ["key", "kind", "name", "parent", "preview"]
    readonly_fields = ["preview"]
    extra = 0


class AssetInline(admin.TabularInline):
    """The logo's files, to see and to delete; new ones come through the upload field."""

    model = Asset
    fields = ["format", "variant", "size", "content_type", "sha256", "created_at"]
    readonly_fields = fields
    extra = 0

    def get_queryset(self, request):
        # Each row shows the asset's name, which names its logo.
        return super().get_queryset(request).select_related("logo", "variant")

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Logo)
class LogoAdmin(SearchThroughDirectory, admin.ModelAdmin):
    search_page = staticmethod(logo_page)
    form = LogoAdminForm
    list_display = [
        "title",
        "company",
        "is_current",
        "is_product",
        "era_label",
        "asset_count",
        "download_count",
    ]
    list_select_related = ["company"]
    list_filter = ["is_current", "is_product"]
    list_per_page = LIST_PER_PAGE
    search_fields = ["title"]  # only shows the search box: get_search_results decides
    autocomplete_fields = ["company"]
    prepopulated_fields = {"slug": ["title"]}
    fieldsets = [
        (None, {"fields": ["title", "slug", "company", "is_current", "make_current"]}),
        (None, {"fields": ["is_product", "era_from", "era_to", "era_label", "description"]}),
        (None, {"fields": ["color_palette", "preview", "download_count"]}),
        ("Upload a file", {"fields": ["upload", "upload_variant"]}),
        (None, {"fields": ["created_at", "updated_at"]}),
    ]
    # is_current changes only with "Make current", which keeps Company.current_logo
    # in step; preview and download_count are written by the system.
    readonly_fields = ["is_current", "preview", "download_count", "created_at", "updated_at"]
    inlines = [VariantInline, AssetInline]
    actions = ["make_current"]

    def get_queryset(self, request):
        asset_count = count_per_row(Asset.objects.all(), field="logo")
        return super().get_queryset(request).annotate(asset_count=asset_count)

    def get_readonly_fields(self, request, obj=None):
        # A logo keeps its company: moving it would leave both companies' current
        # logos wrong.
        if obj is not None:
            return [*self.readonly_fields, "company"]
        return self.readonly_fields

    @admin.display(description="Files", ordering="asset_count")
    def asset_count(self, logo):
        return logo.asset_count or 0

    @admin.action(description="Make current", permissions=["change"])
    def make_current(self, request, queryset):
        logos = list(queryset.select_related("company"))
        per_company = Counter(logo.company_id for logo in logos)
        if any(count > 1 for count in per_company.values()):
            self.message_user(
                request,
                "A company has one current logo: choose at most one logo of each company.",
                messages.ERROR,
            )
            return
        with transaction.atomic():
            changed = sum(logo_make_current(logo=logo) for logo in logos)
        self.message_user(request, f"{changed} logo(s) made current.", messages.SUCCESS)

    def save_model(self, request, obj, form, change):
        if not change:
            logo_create(obj, current=bool(form.cleaned_data.get("make_current")))
            return
        super().save_model(request, obj, form, change)
        if form.cleaned_data.get("make_current"):
            logo_make_current(logo=obj)

    def save_formset(self, request, form, formset, change):
        if formset.model is not Asset:
            super().save_formset(request, form, formset, change)
            return
        # Files are listed read-only; deleting one goes through the service, which
        # also redraws the preview that may have been drawn from it.
        formset.save(commit=False)
        for asset in formset.deleted_objects:
            asset_delete(asset=asset)

    def save_related(self, request, form, formsets, change):
        # After the inlines, so that a file deleted and uploaded again in one go stays.
        super().save_related(request, form, formsets, change)
        data = form.cleaned_data.get("upload")
        if not data:
            return
        variant = form.cleaned_data.get("upload_variant")
        if variant is not None and not Variant.objects.filter(pk=variant.pk).exists():
            self.message_user(
                request, "The file was not attached: its variant was deleted.", messages.WARNING
            )
            return
        stored = file_store(data=data)
        asset, changed = asset_attach(logo=form.instance, variant=variant, stored=stored)
        if changed:
            self.message_user(request, f"Attached the {asset.format} file.", messages.SUCCESS)
        else:
            self.message_user(request, f"The {asset.format} file was already this one.")


@admin.register(Domain)
class DomainAdmin(admin.ModelAdmin):
    form = DomainForm
    list_display = ["domain", "company"]
    list_select_related = ["company"]
    list_per_page = LIST_PER_PAGE
    search_fields = ["domain"]
    autocomplete_fields = ["company"]
