"""The website's proposal page: propose a logo for a company (in the directory or not)
and follow one's proposals. The API's rules, limit and services: the bytes judged by
proposals.files, the upload stopped past 5 MiB by proposals.uploads, the 10 a day of
proposal_submit counted together with the API's. `source` stays the contract's API;
`channel` WEB tells staff the proposal came from this form."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext, ngettext
from django.views.decorators.csrf import csrf_exempt, csrf_protect

from accounts.models import Source
from proposals.files import UnsupportedFile, proposal_file_format
from proposals.forms import ProposalForm
from proposals.models import MAX_PROPOSALS_PER_DAY, ProposalChannel
from proposals.selectors import (
    ProposalTargetError,
    company_by_slug,
    logo_by_id_or_slug,
    proposal_targets,
    proposals_of,
)
from proposals.services import (
    ProposalLimitReached,
    proposal_draft,
    proposal_limit_check,
    proposal_submit,
)
from proposals.uploads import FileTooLarge, limit_upload
from website.csrf import csrf_refused, refused_form, renders_csrf_refusal

LIST_LIMIT = 50


def _too_large() -> str:
    return gettext("The file is larger than 5 MB.")


def _page(request, form: ProposalForm, *, status: int = 200):
    data = form.data if form.is_bound else form.initial
    slug, logo_id = data.get("company_slug"), data.get("logo_id")
    context = {
        "form": form,
        "company": company_by_slug(slug) if slug else None,
        "logo": logo_by_id_or_slug(logo_id) if logo_id else None,
        "proposals": proposals_of(request.user)[:LIST_LIMIT],
        "limit": MAX_PROPOSALS_PER_DAY,
    }
    return render(request, "proposals/proposals.html", context, status=status)


def _file_refused(form: ProposalForm) -> ProposalForm:
    """The form again, unbound (no upload was kept), with the file's error on it."""
    form.cleaned_data = {}
    form.add_error("file", _too_large())
    return form


def _limit_reached(request, form: ProposalForm, refusal: ProposalLimitReached):
    hours = max(1, round(refusal.retry_after / 3600))
    form.add_error(
        None,
        ngettext(
            "You have sent %(limit)s proposals in the last 24 hours: you can send "
            "another in about %(hours)s hour.",
            "You have sent %(limit)s proposals in the last 24 hours: you can send "
            "another in about %(hours)s hours.",
            hours,
        )
        % {"limit": MAX_PROPOSALS_PER_DAY, "hours": hours},
    )
    return _page(request, form, status=429)


def _target_error(form: ProposalForm, missing: ProposalTargetError) -> None:
    if missing.kind == "company":
        form.add_error(None, gettext("That company is not in the directory any more."))
    elif missing.kind == "logo":
        form.add_error(None, gettext("That logo is not in the directory any more."))
    else:
        form.add_error(None, gettext("That logo belongs to another company."))


# CSRF is checked by hand, after the size limit is installed: the middleware's check
# reads the body, and the limit must be in place before anything reads it.
@renders_csrf_refusal
@csrf_exempt
@login_required
def proposals_page(request):
    if request.method != "POST":
        initial = {"company_slug": request.GET.get("company", "")[:255]}
        logo = logo_by_id_or_slug(request.GET.get("logo", "")[:255])
        if logo is not None:
            # As the API wants it: a logo's company is named with it.
            initial = {"company_slug": logo.company.slug, "logo_id": logo.slug}
        return _page(request, ProposalForm(initial=initial))
    if csrf_refused(request):
        # The check has read the body; the file is dropped (a browser never refills one).
        return _page(request, refused_form(request, ProposalForm), status=403)
    try:
        guard = limit_upload(request)
    except FileTooLarge:
        # Refused on its declared length, before a byte is read; nothing changes.
        return _page(request, _file_refused(ProposalForm()), status=413)
    return _submit(request, guard)


@csrf_protect
def _submit(request, guard):
    form = ProposalForm(request.POST, request.FILES)
    # The cheap refusal first, as on the API: an account at its daily limit is told so
    # before its file is decoded. The count that decides is proposal_submit's.
    try:
        proposal_limit_check(submitter=request.user)
    except ProposalLimitReached as refusal:
        return _limit_reached(request, form, refusal)
    if guard.exceeded:
        return _page(request, _file_refused(ProposalForm(initial=request.POST.dict())), status=413)
    if not form.is_valid():
        return _page(request, form, status=400)
    params = form.validated
    try:
        company, logo = proposal_targets(
            company_slug=params.get("companySlug"), logo_id=params.get("logoId")
        )
    except ProposalTargetError as missing:
        _target_error(form, missing)
        return _page(request, form, status=404)
    upload = params["file"]
    data = upload.read()
    try:
        file_format = proposal_file_format(data)
    except UnsupportedFile:
        form.add_error(
            "file",
            gettext(
                "This file is not an SVG, PNG, JPEG or WEBP image we can take (judged by its "
                "content, whatever its name says)."
            ),
        )
        return _page(request, form, status=415)
    draft = proposal_draft(
        params=params,
        company=company,
        logo=logo,
        file_name=upload.name,
        file_format=file_format,
        source=Source.API,  # the contract's default origin; the channel says WEB
        channel=ProposalChannel.WEB,
    )
    try:
        proposal = proposal_submit(submitter=request.user, draft=draft, data=data)
    except ProposalLimitReached as refusal:
        return _limit_reached(request, form, refusal)
    messages.success(
        request,
        gettext("Thank you: your proposal for “%(name)s” waits for review.")
        % {"name": proposal.company_name},
    )
    return redirect("proposal-new")
