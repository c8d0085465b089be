"""The website's account pages: login, sign-up, API tokens and the device-link page.

Thin views: forms validate, services write, selectors read. They speak the
visitor's language (website/i18n.py), Django's own messages too.
"""

import math
from dataclasses import dataclass

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST
from django.views.generic import TemplateView

from accounts.forms import (
    SCOPE_LABELS,
    SOURCE_LABELS,
    DeviceCodeForm,
    LoginForm,
    SignupForm,
    TokenCreateForm,
    email_of,
)
from accounts.mails import signup_link_send, signup_pending_user, signup_taken_send
from accounts.models import ApiToken, DeviceCode, DeviceCodeStatus, Scope, Source
from accounts.ratelimit import usage_of
from accounts.selectors import device_code_for_user_code, token_of, tokens_of
from accounts.services import (
    DEVICE_TOKEN_LIFETIME,
    MAX_LIVE_TOKENS,
    DeviceCodeNotPending,
    TokenLimitReached,
    device_code_decide,
    live_token_count,
    token_issue,
    token_revoke,
    user_signup,
    user_signup_confirm,
)
from accounts.throttle import login_locked_minutes, mail_allowed, signup_wait_minutes
from api.client_ip import client_ip
from website.csrf import (
    REFUSAL,
    RendersCsrfRefusal,
    csrf_refused,
    refused_form,
    renders_csrf_refusal,
)

# Login, logout, sign-up


LOCKED_MESSAGE = gettext_lazy(
    "Too many failed logins for this account or from this address. "
    "Try again in %(minutes)d minutes."
)
TOKEN_LIMIT_MESSAGE = gettext_lazy(
    "Your account has %(count)d tokens in use. Revoke one you no longer use to make another."
)
SIGNUP_LIMIT_MESSAGE = gettext_lazy(
    "Too many sign-ups from this address. Try again in %(minutes)d minutes."
)


class LoginPage(RendersCsrfRefusal, auth_views.LoginView):
    """Django's login, throttled (accounts/throttle.py, whose backend counts failures):
    while an account or an address is locked, no password is checked, the right one
    neither, and the page says why. A form refused by the CSRF check is not checked
    either, so it counts no failure."""

    form_class = LoginForm
    redirect_authenticated_user = True

    def post(self, request, *args, **kwargs):
        if csrf_refused(request):
            return self.refusal()
        minutes = login_locked_minutes(request, email_of(request.POST.get("username", "")))
        if minutes is None:
            return super().post(request, *args, **kwargs)
        messages.error(request, LOCKED_MESSAGE % {"minutes": minutes})
        context = self.get_context_data(form=self.form_class(request))
        return self.render_to_response(context, status=429)


class LogoutPage(auth_views.LogoutView):
    """POST only (Django's LogoutView); the nav holds the form."""


def _safe_next(request) -> str | None:
    """The `next` asked for, if it is on this site."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    if url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return None


def _next_url(request) -> str:
    """Where to go after sign-up: a `next` on this site, else the tokens page."""
    return _safe_next(request) or settings.LOGIN_REDIRECT_URL


@renders_csrf_refusal
def signup_page(request):
    """Sign-up answers every valid form alike, whether its email has an account or not: a
    mail goes to the email (its link, or a note to its owner) and the browser to "check
    your email". Nobody is logged in until the link is opened."""
    if request.user.is_authenticated:
        return redirect(_next_url(request))
    if csrf_refused(request):
        context = {
            "form": refused_form(request, SignupForm),
            "next": request.POST.get("next") or "",
        }
        return render(request, "accounts/signup.html", context, status=403)
    if request.method == "POST":
        minutes = signup_wait_minutes(request)
        if minutes is not None:
            messages.error(request, SIGNUP_LIMIT_MESSAGE % {"minutes": minutes})
            context = {"form": SignupForm(), "next": request.POST.get("next") or ""}
            return render(request, "accounts/signup.html", context, status=429)
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = user_signup(
            email=form.cleaned_data["email"],
            password=form.cleaned_data["password1"],
            first_name=form.cleaned_data["first_name"],
        )
        # Past the mails an email may get, none is sent and the answer is the same.
        if mail_allowed(request, form.cleaned_data["email"]):
            if user is None:
                signup_taken_send(email=form.cleaned_data["email"])
            else:
                signup_link_send(user=user, next_url=_safe_next(request))
        return redirect("signup-sent")
    next_url = request.POST.get("next") or request.GET.get("next") or ""
    return render(request, "accounts/signup.html", {"form": form, "next": next_url})


signup_sent_page = TemplateView.as_view(
    template_name="accounts/notice.html",
    extra_context={
        "title": gettext_lazy("Check your email"),
        "paragraphs": [
            gettext_lazy(
                "We have sent a message to the address you gave. Open the link in it to "
                "finish signing up."
            ),
            gettext_lazy(
                "No message after a few minutes? Look in the spam folder, or sign up again "
                "to get another link."
            ),
        ],
    },
)


@never_cache
def signup_confirm_page(request, uidb64: str, token: str):
    """The link of the sign-up mail. Opening it shows a button: the account is activated
    and its person logged in by the POST, so that a mail scanner that fetches the link
    does not use it up."""
    user = signup_pending_user(uidb64, token)
    if user is None:
        return render(request, "accounts/signup_confirm.html", {"valid": False}, status=400)
    if request.method == "POST":
        user_signup_confirm(user=user)
        login(request, user)
        messages.success(request, gettext("Your email is confirmed. You are logged in."))
        return redirect(_next_url(request))
    context = {"valid": True, "email": user.email, "next": _safe_next(request) or ""}
    return render(request, "accounts/signup_confirm.html", context)


# API tokens


@dataclass(frozen=True)
class TokenRow:
    token: ApiToken
    source: str
    expired: bool

    @property
    def live(self) -> bool:
        return self.token.revoked_at is None and not self.expired


def _tokens_page(request, form: TokenCreateForm, *, status: int = 200, **context):
    now = timezone.now()
    rows = [
        TokenRow(token=token, source=SOURCE_LABELS[token.source], expired=token.is_expired(now))
        for token in tokens_of(request.user)
    ]
    return render(
        request,
        "accounts/tokens.html",
        {"form": form, "rows": rows, **context},
        status=status,
    )


@never_cache
@renders_csrf_refusal
@login_required
def tokens_page(request):
    if csrf_refused(request):
        return _tokens_page(request, refused_form(request, TokenCreateForm), status=403)
    if request.method != "POST":
        return _tokens_page(request, TokenCreateForm())
    form = TokenCreateForm(request.POST)
    if not form.is_valid():
        return _tokens_page(request, form)
    try:
        issued = token_issue(
            user=request.user,
            name=form.cleaned_data["name"],
            scopes=form.cleaned_data["scopes"],
            source=form.cleaned_data["source"],
            expires_at=form.expires_at(timezone.now()),
        )
    except TokenLimitReached:
        form.add_error(None, TOKEN_LIMIT_MESSAGE % {"count": MAX_LIVE_TOKENS})
        return _tokens_page(request, form)
    # The secret exists only in this response (never_cache keeps it out of caches):
    # not in the session, a message or a redirect, so a reload cannot show it again.
    return _tokens_page(request, TokenCreateForm(), new_secret=issued.secret)


@renders_csrf_refusal
@login_required
@require_POST
def token_revoke_page(request, pk: int):
    token = token_of(request.user, pk)
    if token is None:
        raise Http404
    if csrf_refused(request):
        return _tokens_page(request, TokenCreateForm(), status=403, problem=REFUSAL)
    if token.revoked_at is not None:
        messages.info(
            request, gettext("The token “%(name)s” was revoked already.") % {"name": token.name}
        )
    else:
        token_revoke(token=token)
        messages.success(
            request,
            gettext("Token “%(name)s” revoked: the API no longer takes it.") % {"name": token.name},
        )
    return redirect("account-tokens")


# Device link (RFC 8628): the person approves or denies what a plugin asked for.

# RFC 8628 §5.1's worked example: 8 base-20 characters and 5 guesses per code lifetime
# (15 minutes) keep the chance of hitting someone's code near 2^-32.
DEVICE_CODE_RATE = "5/15m"


def _wrong_code_subjects(request) -> list[str]:
    return [f"device-code:user:{request.user.pk}", f"device-code:ip:{client_ip(request)}"]


def _wrong_code_wait(request) -> int | None:
    """Seconds until this person and address may try a code again; None if they may now.

    The counts are of wrong codes only, so the limit is reached after the 5th and
    every attempt after that is refused, a right code too, until the window ends.
    """
    usages = [
        usage_of(subject, DEVICE_CODE_RATE, increment=False)
        for subject in _wrong_code_subjects(request)
    ]
    return max((usage.reset for usage in usages if usage.count >= usage.limit), default=None)


def _count_wrong_code(request) -> None:
    for subject in _wrong_code_subjects(request):
        usage_of(subject, DEVICE_CODE_RATE, increment=True)


DEVICE_APP_NAMES = {Source.FIGMA: "Figma", Source.CHROME: "Chrome"}
NOT_PENDING_MESSAGES = {
    "expired": gettext_lazy(
        "This code has expired. Go back to the plugin and start again to get another."
    ),
    "already decided": gettext_lazy(
        "This code was used already: it was approved or denied before. "
        "To link the plugin again, start again from the plugin."
    ),
}


def _not_pending_reason(device_code: DeviceCode) -> str | None:
    # The same reasons, in the same order, as device_code_decide gives them.
    if device_code.status != DeviceCodeStatus.PENDING:
        return "already decided"
    if device_code.is_expired(timezone.now()):
        return "expired"
    return None


def _device_page(request, form: DeviceCodeForm, *, status: int = 200, **context):
    return render(request, "accounts/device.html", {"form": form, **context}, status=status)


@never_cache
@renders_csrf_refusal
@login_required
def device_page(request):
    if csrf_refused(request):
        # The code sent is not kept: the person types it again, from the plugin.
        return _device_page(request, DeviceCodeForm(), status=403, problem=REFUSAL)
    if request.method == "POST":
        form = DeviceCodeForm(request.POST)
    else:
        code = request.GET.get("code", "")
        form = DeviceCodeForm({"user_code": code}) if code.strip() else DeviceCodeForm()
    if not form.is_bound:
        return _device_page(request, form)
    if not form.is_valid():
        return _device_page(request, form, status=400)

    # Checked before any lookup: over the limit, a right code is refused as well.
    wait = _wrong_code_wait(request)
    if wait is not None:
        response = _device_page(
            request, form, status=429, wait_minutes=math.ceil(wait / 60), limited=True
        )
        response["Retry-After"] = str(wait)
        return response

    device_code = device_code_for_user_code(form.cleaned_data["user_code"])
    if device_code is None:
        _count_wrong_code(request)
        form.add_error(
            "user_code",
            gettext("There is no such code. Check it in the plugin: 8 letters, like WDJB-MJHT."),
        )
        return _device_page(request, form, status=400)

    action = form.cleaned_data["action"]
    if (
        request.method == "POST"
        and action == "approve"
        and (live_token_count(request.user) >= MAX_LIVE_TOKENS)
    ):
        problem = TOKEN_LIMIT_MESSAGE % {"count": MAX_LIVE_TOKENS}
        return _device_page(request, form, status=409, device_code=device_code, problem=problem)
    if request.method == "POST" and action:
        try:
            decided = device_code_decide(
                device_code=device_code, user=request.user, approve=action == "approve"
            )
        except DeviceCodeNotPending as refused:
            return _device_page(
                request,
                form,
                status=409,
                device_code=refused.device_code,
                problem=NOT_PENDING_MESSAGES[refused.reason],
            )
        return render(
            request,
            "accounts/device_done.html",
            {
                "device_code": decided,
                "approved": decided.status == DeviceCodeStatus.APPROVED,
                "app_name": DEVICE_APP_NAMES[decided.source],
                "source": SOURCE_LABELS[decided.source],
            },
        )

    reason = _not_pending_reason(device_code)
    if reason is not None:
        return _device_page(
            request, form, device_code=device_code, problem=NOT_PENDING_MESSAGES[reason]
        )
    # Show the code as the plugin shows it, so the person can compare the two.
    form = DeviceCodeForm(initial={"user_code": device_code.display_user_code})
    return _device_page(
        request,
        form,
        device_code=device_code,
        source=SOURCE_LABELS[device_code.source],
        # A device token gets every scope (docs/api.md), so all four are shown.
        scopes=[(scope, SCOPE_LABELS[scope]) for scope in Scope.values],
        token_days=DEVICE_TOKEN_LIFETIME.days,
        confirm=True,
    )
