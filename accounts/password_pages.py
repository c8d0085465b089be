"""The website's password pages: change it (signed in), and reset it by email.

Django's own views and forms (django.contrib.auth.views) in the site's templates, each
form limited per address (accounts/throttle.py). The reset answers alike whether the
email has an account or not, as Django's does: a mail goes only to an active account
with a password, and the page says "if it has an account" either way.
"""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.http import HttpResponseRedirect
from django.urls import reverse_lazy
from django.utils.functional import lazy
from django.utils.translation import gettext, gettext_lazy

from accounts.forms import email_of
from accounts.throttle import mail_allowed, password_form_wait_minutes
from website.csrf import RendersCsrfRefusal

PASSWORD_LIMIT_MESSAGE = gettext_lazy(
    "Too many password forms from this address or for this account. "
    "Try again in %(minutes)d minutes."
)


class PerAddressLimit:
    """Counts every form sent (`limited_form` names the count); the one too many gets the
    page again with an empty form, status 429 and the message. The form is not bound, so
    nothing of it is checked, an old password neither. A form refused by the CSRF check
    is not counted: RendersCsrfRefusal, before it among a page's bases, answers it (and
    makes unbound_form)."""

    limited_form: str

    def post(self, request, *args, **kwargs):
        minutes = password_form_wait_minutes(request, self.limited_form)
        if minutes is None:
            return super().post(request, *args, **kwargs)
        messages.error(request, PASSWORD_LIMIT_MESSAGE % {"minutes": minutes})
        form = self.unbound_form()
        return self.render_to_response(self.get_context_data(form=form), status=429)


def _notice(view, *paragraphs, links=()):
    """One of Django's "done" pages (its title) with the site's paragraphs and links."""
    context = {"paragraphs": paragraphs, "links": links}
    return view.as_view(template_name="accounts/notice.html", extra_context=context)


class PasswordChangePage(RendersCsrfRefusal, PerAddressLimit, auth_views.PasswordChangeView):
    limited_form = "change"
    template_name = "accounts/password_form.html"
    success_url = reverse_lazy("password-change-done")
    extra_context = {"submit": gettext_lazy("Change my password")}


password_change_done_page = _notice(
    auth_views.PasswordChangeDoneView,
    gettext_lazy("Your password is changed. Use the new one from now on."),
    links=[(reverse_lazy("account-tokens"), gettext_lazy("Back to your tokens"))],
)


class PasswordResetPage(RendersCsrfRefusal, PerAddressLimit, auth_views.PasswordResetView):
    limited_form = "reset"
    template_name = "accounts/password_form.html"
    email_template_name = "accounts/mail/password_reset.txt"
    subject_template_name = "accounts/mail/password_reset_subject.txt"
    success_url = reverse_lazy("password-reset-sent")
    # Links to the site's one configured address, as every mail of the site (accounts/mails.py).
    extra_email_context = {"site_url": settings.SITE_URL}
    extra_context = {
        "submit": gettext_lazy("Send me a link"),
        "intro": gettext_lazy(
            "Type the email of your account: we will send it a link to choose a new password."
        ),
    }

    def form_valid(self, form):
        if mail_allowed(self.request, email_of(form.cleaned_data["email"])):
            return super().form_valid(form)  # Django's: mails an active account, if any
        return HttpResponseRedirect(self.get_success_url())  # as if sent (accounts/throttle.py)


def _reset_sent_text() -> str:
    return gettext(
        "If the email you typed has an account, a message with a link to choose a new "
        "password is on its way. The link works once, for %(days)d days."
    ) % {"days": settings.PASSWORD_RESET_TIMEOUT // 86400}


password_reset_sent_page = _notice(
    auth_views.PasswordResetDoneView,
    lazy(_reset_sent_text, str)(),
    gettext_lazy(
        "No message after a few minutes? Look in the spam folder, and check the address you typed."
    ),
)


class PasswordResetConfirmPage(
    RendersCsrfRefusal, PerAddressLimit, auth_views.PasswordResetConfirmView
):
    """The link of the reset mail; Django moves its token into the session, out of the
    address bar, before showing the form."""

    limited_form = "set"
    template_name = "accounts/password_form.html"
    success_url = reverse_lazy("password-reset-done")
    extra_context = {"submit": gettext_lazy("Set my password")}


password_reset_done_page = _notice(
    auth_views.PasswordResetCompleteView,
    gettext_lazy("Your new password is set."),
    links=[(reverse_lazy("login"), gettext_lazy("Log in"))],
)
