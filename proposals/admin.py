"""The staff review of proposals: a queue, a safe preview, approve and reject.

Reviewing goes through proposals.services (proposal_approve, proposal_reject), from
the changelist actions, the change page and the review_proposal command alike. The
upload itself never reaches the browser: staff see a PNG drawn on the server from a
sanitised copy, served with headers that keep a browser from reading it as anything else.
"""

import copy

from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.contrib.admin.options import csrf_protect_m
from django.contrib.admin.templatetags.admin_urls import add_preserved_filters
from django.contrib.admin.utils import unquote
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse, HttpResponseRedirect
from django.template.defaultfilters import filesizeformat
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html, format_html_join

from directory.catalogue.models import Company, Logo
from directory.catalogue.selectors import preview_url
from proposals.admin_review import (
    PREVIEW_HEADERS,
    UNUSABLE_FILE,
    RejectForm,
    ReviewForm,
    ReviewQueueFilter,
    is_queue,
    proposal_preview_png,
)
from proposals.models import Proposal, ProposalStatus
from proposals.services import ProposalNotPending, proposal_approve, proposal_reject

LIST_PER_PAGE = 50


@admin.register(Proposal)
class ProposalAdmin(admin.ModelAdmin):
    list_display = [
        "created_at",
        "proposed_thumbnail",
        "company_name",
        "named_company",
        "existing_thumbnail",
        "submitter",
        "status",
        "file_format",
        "size",
        "source",
        "channel",
    ]
    list_display_links = ["created_at", "company_name"]
    list_select_related = ["submitter", "company__current_logo", "logo"]
    list_filter = [ReviewQueueFilter, "file_format", "source", "channel"]
    list_per_page = LIST_PER_PAGE
    search_fields = ["company_name", "submitter__email"]
    fieldsets = [
        ("Proposed", {"fields": ["side_by_side", "outcome"]}),
        (
            "Proposal",
            {"fields": ["company_name", "company", "logo", "website", "source_link", "notes"]},
        ),
        (
            "Upload",
            {
                "fields": [
                    "file_name",
                    "file_format",
                    "size",
                    "submitter",
                    "source",
                    "channel",
                    "created_at",
                ]
            },
        ),
        ("Decision", {"fields": ["status", "reviewed_at", "reviewed_by", "review_note"]}),
    ]
    # Everything is as submitted or as the review left it; the file itself is never listed,
    # since its link would hand the upload to the browser as it is.
    readonly_fields = [
        "side_by_side",
        "outcome",
        "company_name",
        "company",
        "logo",
        "website",
        "source_link",
        "notes",
        "file_name",
        "file_format",
        "size",
        "submitter",
        "source",
        "channel",
        "created_at",
        "status",
        "reviewed_at",
        "reviewed_by",
        "review_note",
    ]
    actions = ["approve", "reject"]

    def get_ordering(self, request):
        # The queue is worked through oldest first; past reviews are looked up newest first.
        if is_queue(request):
            return ["created_at", "id"]
        return ["-created_at", "-id"]

    def changelist_view(self, request, extra_context=None):
        if is_queue(request):
            extra_context = {"title": "Review queue: pending proposals, oldest first"} | (
                extra_context or {}
            )
        return super().changelist_view(request, extra_context)

    def has_add_permission(self, request) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        # A review is a record (and an approval has a logo made from it): it stays.
        if obj is not None and obj.status != ProposalStatus.PENDING:
            return False
        return super().has_delete_permission(request, obj)

    # Columns and read-only fields

    @admin.display(description="Size", ordering="file_size")
    def size(self, proposal: Proposal) -> str:
        return filesizeformat(proposal.file_size)

    @admin.display(description="Company", ordering="company__name")
    def named_company(self, proposal: Proposal) -> Company | None:
        return proposal.company

    @admin.display(description="Proposed")
    def proposed_thumbnail(self, proposal: Proposal) -> str:
        return self._image(self._preview_path(proposal), "Proposed", 64)

    @admin.display(description="Existing logo")
    def existing_thumbnail(self, proposal: Proposal) -> str | None:
        existing = self._existing_logo(proposal)
        if existing is None or not existing.preview:
            return None
        return self._image(preview_url(existing.preview.name), existing.title, 64)

    @admin.display(description="Preview")
    def side_by_side(self, proposal: Proposal) -> str:
        figures = [(self._preview_path(proposal), "Proposed file")]
        existing = self._existing_logo(proposal)
        if existing is not None:
            caption = (
                f"The logo it updates: {existing.title}"
                if proposal.logo_id
                else f"Current logo of {proposal.company.name}: {existing.title}"
            )
            url = preview_url(existing.preview.name) if existing.preview else ""
            figures.append((url, caption))
        return format_html(
            '<div class="proposal-review">{}</div>',
            format_html_join(
                "",
                "<figure>{}<figcaption>{}</figcaption></figure>",
                ((self._image(url, caption, 256), caption) for url, caption in figures),
            ),
        )

    @admin.display(description="Approving it")
    def outcome(self, proposal: Proposal) -> str:
        if proposal.status != ProposalStatus.PENDING:
            return f"{proposal.get_status_display()}: reviewed."
        if proposal.logo_id:
            return f"adds this file to the logo “{proposal.logo.title}” ({proposal.logo.slug})."
        if proposal.company_id:
            return f"adds a new logo to “{proposal.company.name}” ({proposal.company.slug})."
        return (
            f"creates the company “{proposal.company_name}” with this as its logo, "
            "unless you link an existing company below."
        )

    @admin.display(description="Source URL")
    def source_link(self, proposal: Proposal) -> str:
        url = proposal.source_url
        if not url:
            return self.get_empty_value_display()
        if not url.lower().startswith(("https://", "http://")):
            return url
        return format_html('<a href="{}" rel="noopener noreferrer nofollow">{}</a>', url, url)

    def _preview_path(self, proposal: Proposal) -> str:
        return reverse(f"{self.admin_site.name}:proposals_proposal_preview", args=[proposal.pk])

    def _existing_logo(self, proposal: Proposal) -> Logo | None:
        if proposal.logo_id:
            return proposal.logo
        return proposal.company.current_logo if proposal.company_id else None

    @staticmethod
    def _image(url: str, alt: str, size: int) -> str:
        if not url:
            return format_html("<em>{}</em>", "no preview yet")
        return format_html(
            '<img src="{}" alt="{}" loading="lazy" style="max-width:{}px;max-height:{}px">',
            url,
            alt,
            size,
            size,
        )

    # The preview

    def get_urls(self):
        preview = path(
            "<path:object_id>/preview.png",
            # cacheable: the view sets its own Cache-Control rather than never_cache's.
            self.admin_site.admin_view(self.preview_view, cacheable=True),
            name="proposals_proposal_preview",
        )
        return [preview, *super().get_urls()]

    def preview_view(self, request, object_id):
        proposal = self.get_object(request, unquote(object_id))
        if proposal is None:
            raise Http404("No such proposal.")
        if not self.has_view_permission(request, proposal):
            raise PermissionDenied
        try:
            png = proposal_preview_png(proposal)
        except UNUSABLE_FILE as exc:
            response = HttpResponse(
                f"No preview: {exc}", status=422, content_type="text/plain; charset=utf-8"
            )
        else:
            response = HttpResponse(png, content_type="image/png")
        for header, value in PREVIEW_HEADERS.items():
            response[header] = value
        return response

    # Reviewing

    def _approve(self, request, proposal: Proposal, **choices) -> Proposal | None:
        """Approves through the service; on failure, says why and returns None."""
        try:
            approved = proposal_approve(proposal=proposal, reviewer=request.user, **choices)
        except ProposalNotPending:
            self._already_reviewed(request, proposal)
            return None
        except UNUSABLE_FILE as exc:
            self.message_user(
                request,
                f"“{proposal.company_name}” was not approved: its file cannot be used ({exc}). "
                "Reject it with a note instead.",
                messages.ERROR,
            )
            return None
        self.message_user(
            request,
            format_html(
                'Approved “{}”: company <a href="{}">{}</a>, logo <a href="{}">{}</a>.',
                approved.company_name,
                reverse("admin:directory_company_change", args=[approved.company_id]),
                approved.company.slug,
                reverse("admin:directory_logo_change", args=[approved.logo_id]),
                approved.logo.slug,
            ),
            messages.SUCCESS,
        )
        return approved

    def _already_reviewed(self, request, proposal: Proposal) -> None:
        current = Proposal.objects.select_related("reviewed_by").get(pk=proposal.pk)
        self.message_user(
            request,
            f"“{current.company_name}” was not changed: it was "
            f"{current.get_status_display().lower()} already"
            + (f" by {current.reviewed_by}" if current.reviewed_by else "")
            + ", and a review is final.",
            messages.WARNING,
        )

    def _reviewed_meanwhile(self, request, queryset) -> None:
        # The queue lists pending proposals only, so one reviewed since the page was shown
        # is no longer in the queryset at all: say so rather than pass over it in silence.
        if request.POST.get("select_across") == "1":
            return
        missing = len(set(request.POST.getlist(helpers.ACTION_CHECKBOX_NAME))) - queryset.count()
        if missing > 0:
            self.message_user(
                request,
                f"{missing} of the selected proposal(s) were not changed: reviewed meanwhile, "
                "and a review is final.",
                messages.WARNING,
            )

    @admin.action(description="Approve the selected proposals", permissions=["change"])
    def approve(self, request, queryset):
        self._reviewed_meanwhile(request, queryset)
        # One at a time and each in its own transaction: one bad file spoils no other.
        for proposal in queryset.order_by("created_at", "id"):
            self._approve(request, proposal)

    @admin.action(description="Reject the selected proposals…", permissions=["change"])
    def reject(self, request, queryset):
        form = RejectForm(request.POST if "apply" in request.POST else None)
        if form.is_bound and form.is_valid():
            self._reviewed_meanwhile(request, queryset)
            rejected = 0
            for proposal in queryset.order_by("created_at", "id"):
                try:
                    proposal_reject(
                        proposal=proposal, reviewer=request.user, note=form.cleaned_data["note"]
                    )
                except ProposalNotPending:
                    self._already_reviewed(request, proposal)
                else:
                    rejected += 1
            self.message_user(request, f"Rejected {rejected} proposal(s).", messages.SUCCESS)
            return None
        context = {
            **self.admin_site.each_context(request),
            "title": "Reject proposals",
            "subtitle": None,
            "opts": self.opts,
            "proposals": list(queryset.select_related("submitter")),
            "form": form,
            "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
            "media": self.media,
        }
        return TemplateResponse(
            request, "admin/proposals/proposal/reject_confirmation.html", context
        )

    @csrf_protect_m  # as the admin's own change view: its POSTs are handled here now
    def change_view(self, request, object_id, form_url="", extra_context=None):
        if request.method == "POST":
            return self._review_from_change_page(request, object_id)
        return super().change_view(request, object_id, form_url, extra_context)

    def _review_from_change_page(self, request, object_id):
        proposal = self.get_object(request, unquote(object_id))
        if proposal is None:
            return self._get_obj_does_not_exist_redirect(request, self.opts, object_id)
        if not self.has_change_permission(request, proposal):
            raise PermissionDenied
        here = reverse("admin:proposals_proposal_change", args=[proposal.pk])
        approving, rejecting = "_approve" in request.POST, "_reject" in request.POST
        if approving == rejecting:
            # A plain save would write back the row as this page read it, over a review
            # made meanwhile: nothing on the page is saved, a proposal only gets reviewed.
            self.message_user(request, "Approve or Reject: nothing else changes a proposal.")
            return HttpResponseRedirect(here)
        form = ReviewForm(request.POST, admin_site=self.admin_site, rejecting=rejecting)
        if not form.is_valid():
            # The page again, as read, with the form's errors and what staff typed.
            as_read = copy.copy(request)
            as_read.method = "GET"
            return super().change_view(as_read, object_id, extra_context={"review_form": form})
        note = form.cleaned_data["note"]
        if rejecting:
            try:
                proposal_reject(proposal=proposal, reviewer=request.user, note=note)
            except ProposalNotPending:
                self._already_reviewed(request, proposal)
                return HttpResponseRedirect(here)
            self.message_user(request, f"Rejected “{proposal.company_name}”.", messages.SUCCESS)
        elif (
            self._approve(
                request, proposal, company=form.cleaned_data["company"], note=note or None
            )
            is None
        ):
            return HttpResponseRedirect(here)
        # Back to the queue, as staff had filtered it, for the next one.
        queue = reverse("admin:proposals_proposal_changelist")
        preserved = {"preserved_filters": self.get_preserved_filters(request), "opts": self.opts}
        return HttpResponseRedirect(add_preserved_filters(preserved, queue))

    def render_change_form(self, request, context, add=False, change=False, form_url="", obj=None):
        review_form = context.get("review_form")
        if (
            review_form is None
            and obj is not None
            and obj.status == ProposalStatus.PENDING
            and self.has_change_permission(request, obj)
        ):
            review_form = ReviewForm(admin_site=self.admin_site)
        if review_form is not None:
            context["review_form"] = review_form
            context["media"] = context["media"] + review_form.media
        # The Approve and Reject buttons stand for Save: there is nothing else to save.
        context.update(show_save=False, show_save_and_continue=False)
        return super().render_change_form(request, context, add, change, form_url, obj)
