"""The website's account forms: they validate; services and the user manager write."""

from datetime import datetime, timedelta

from django import forms
from django.contrib.auth import password_validation
from django.contrib.auth.forms import AuthenticationForm
from django.core.exceptions import ValidationError
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from accounts.models import Scope, Source, User

# The website's words for them, in its visitor's language; the model labels stay as the
# admin and the API show them.
SOURCE_LABELS = {
    Source.API: _("API"),
    Source.MCP: _("MCP server"),
    Source.FIGMA: _("Figma plugin"),
    Source.CHROME: _("Chrome extension"),
}
SCOPE_LABELS = {
    Scope.READ_LOGOS: _("See logos"),
    Scope.READ_PALETTES: _("See palettes"),
    Scope.WRITE_PALETTES: _("Make and change palettes"),
    Scope.WRITE_PROPOSALS: _("Send proposals"),
}
EXPIRY_CHOICES = [
    ("", _("No expiry")),
    ("30", _("30 days")),
    ("90", _("90 days")),
    ("365", _("365 days")),
]


def email_of(text: str) -> str:
    # Stored emails are lower case (UserManager.create_user), so typed ones are compared so.
    return User.objects.normalize_email(text.strip()).lower()


class LoginForm(AuthenticationForm):
    """Email and password; the email is accepted in any case."""

    error_messages = {
        **AuthenticationForm.error_messages,
        "invalid_login": _("The email or the password is not right."),
    }

    def __init__(self, request=None, *args, **kwargs):
        super().__init__(request, *args, **kwargs)
        self.fields["username"].label = _("Email")
        self.fields["username"].widget = forms.EmailInput(
            attrs={"autofocus": True, "autocomplete": "email", "maxlength": 254}
        )
        self.fields["password"].label = _("Password")

    def clean_username(self) -> str:
        return email_of(self.cleaned_data["username"])


class SignupForm(forms.Form):
    email = forms.EmailField(
        label=_("Email"),
        max_length=254,
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )
    first_name = forms.CharField(
        label=_("First name (optional)"),
        max_length=150,
        required=False,
        widget=forms.TextInput(attrs={"autocomplete": "given-name"}),
    )
    password1 = forms.CharField(
        label=_("Password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        help_text=password_validation.password_validators_help_text_html,
    )
    password2 = forms.CharField(
        label=_("Password again"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )

    def clean_email(self) -> str:
        # Whether the email has an account is never a form error: the page would tell
        # anyone. The mail sent to it tells its owner (accounts/pages.py).
        return email_of(self.cleaned_data["email"])

    def clean(self):
        cleaned = super().clean()
        password1, password2 = cleaned.get("password1"), cleaned.get("password2")
        if password1 and password2 and password1 != password2:
            self.add_error("password2", _("The two passwords differ."))
        elif password1:
            # An unsaved user, so the similarity check compares with the email and name.
            candidate = User(email=cleaned.get("email") or "", first_name=cleaned.get("first_name"))
            try:
                password_validation.validate_password(password1, user=candidate)
            except ValidationError as error:
                self.add_error("password1", error)
        return cleaned


class TokenCreateForm(forms.Form):
    name = forms.CharField(
        label=_("Name"),
        min_length=1,
        max_length=100,
        help_text=_("To know it again later, for example “Laptop” or “CI integration”."),
    )
    scopes = forms.MultipleChoiceField(
        label=_("Permissions"),
        choices=[
            (scope, format_lazy("{} · {}", scope, SCOPE_LABELS[scope])) for scope in Scope.values
        ],
        widget=forms.CheckboxSelectMultiple,
        error_messages={"required": _("Choose at least one permission.")},
    )
    source = forms.ChoiceField(
        label=_("Origin"),
        choices=[(source, SOURCE_LABELS[source]) for source in Source.values],
        initial=Source.API,
    )
    expires_in_days = forms.TypedChoiceField(
        label=_("Expiry"),
        choices=EXPIRY_CHOICES,
        coerce=int,
        empty_value=None,
        required=False,
        initial="90",
    )

    def expires_at(self, now: datetime) -> datetime | None:
        days = self.cleaned_data["expires_in_days"]
        return None if days is None else now + timedelta(days=days)


class DeviceCodeForm(forms.Form):
    """The user code typed or pre-filled, and what to do with it.

    Whether the code is well formed is not a form error: a malformed code is a
    wrong code, and the page counts wrong codes against the rate limit.
    """

    user_code = forms.CharField(
        label=_("Code"),
        help_text=_("The 8-letter code the plugin shows, for example WDJB-MJHT."),
        widget=forms.TextInput(
            attrs={
                "autocomplete": "off",
                "autocapitalize": "characters",
                "spellcheck": "false",
                "maxlength": 20,
                "size": 12,
            }
        ),
        error_messages={"required": _("Type the code the plugin shows.")},
    )
    action = forms.ChoiceField(
        choices=[("approve", _("Approve")), ("deny", _("Deny"))],
        required=False,
    )
