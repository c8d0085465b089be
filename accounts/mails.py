"""The mails about an account: the sign-up link, and the note to an owner whose email
someone signed up with. Django's password reset sends its own (accounts/password_pages.py)
from a template beside these (templates/accounts/mail/).

Mails are written in the language of the page that sent them, with links to SITE_URL,
the site's one configured address, never to a host a request named.
"""

from urllib.parse import urlencode

from django.conf import settings
from django.contrib.auth.tokens import PasswordResetTokenGenerator
from django.core.mail import send_mail
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_decode, urlsafe_base64_encode

from accounts.models import User
from accounts.services import user_is_pending


class SignupTokenGenerator(PasswordResetTokenGenerator):
    """Django's password reset tokens under a salt of their own, so that a sign-up link is
    no reset link nor the other way round. A token hashes the account's password and last
    login: it stops working once used (the login that follows sets last_login) or once a
    later sign-up replaced the password, and after PASSWORD_RESET_TIMEOUT."""

    key_salt = "accounts.mails.SignupTokenGenerator"


signup_token_generator = SignupTokenGenerator()


def _send(name: str, to: str, context: dict) -> None:
    context = {**context, "site_url": settings.SITE_URL}
    # A subject is one line: a line break in it would be a header injection.
    subject = " ".join(render_to_string(f"accounts/mail/{name}_subject.txt", context).split())
    body = render_to_string(f"accounts/mail/{name}.txt", context)
    send_mail(subject, body, None, [to])


def signup_link_send(*, user: User, next_url: str | None) -> None:
    path = reverse(
        "signup-confirm",
        kwargs={
            "uidb64": urlsafe_base64_encode(force_bytes(user.pk)),
            "token": signup_token_generator.make_token(user),
        },
    )
    if next_url:
        path += "?" + urlencode({"next": next_url})
    days = settings.PASSWORD_RESET_TIMEOUT // 86400
    _send("signup_confirm", user.email, {"link": settings.SITE_URL + path, "days": days})


def signup_taken_send(*, email: str) -> None:
    _send("signup_taken", email, {})


def signup_pending_user(uidb64: str, token: str) -> User | None:
    """The pending account a sign-up link confirms; None for a used, changed or expired one."""
    try:
        pk = int(urlsafe_base64_decode(uidb64).decode())
    except (TypeError, ValueError, OverflowError, UnicodeDecodeError):
        return None
    user = User.objects.filter(pk=pk).first()
    if user is None or not user_is_pending(user):
        return None
    return user if signup_token_generator.check_token(user, token) else None
