"""The website's account forms: they validate; services and the user manager write."""

from datetime import datetime, timedelta

from django import forms
from django.contrib.auth import password_validation
from django.contrib.auth.forms import AuthenticationForm
from django.core.exceptions import ValidationError

from accounts.models import Scope, Source, User

# The site speaks Spanish; the model labels stay English for the admin and the API.
SOURCE_LABELS = {
    Source.API: "API",
    Source.MCP: "Servidor MCP",
    Source.FIGMA: "Plugin de Figma",
    Source.CHROME: "Extensión de Chrome",
}
SCOPE_LABELS = {
    Scope.READ_LOGOS: "Ver logos",
    Scope.READ_PALETTES: "Ver paletas",
    Scope.WRITE_PALETTES: "Crear y editar paletas",
    Scope.WRITE_PROPOSALS: "Enviar propuestas",
}
EXPIRY_CHOICES = [("", "Sin caducidad"), ("30", "30 días"), ("90", "90 días"), ("365", "365 días")]


def _email_of(text: str) -> str:
    # Stored emails are lower case (UserManager.create_user), so typed ones are compared so.
    return User.objects.normalize_email(text.strip()).lower()


class LoginForm(AuthenticationForm):
    """Email and password; the email is accepted in any case."""

    error_messages = {
        **AuthenticationForm.error_messages,
        "invalid_login": "El correo o la contraseña no son correctos.",
    }

    def __init__(self, request=None, *args, **kwargs):
        super().__init__(request, *args, **kwargs)
        self.fields["username"].label = "Correo electrónico"
        self.fields["username"].widget = forms.EmailInput(
            attrs={"autofocus": True, "autocomplete": "email", "maxlength": 254}
        )
        self.fields["password"].label = "Contraseña"

    def clean_username(self) -> str:
        return _email_of(self.cleaned_data["username"])


class SignupForm(forms.Form):
    email = forms.EmailField(
        label="Correo electrónico",
        max_length=254,
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )
    first_name = forms.CharField(
        label="Nombre (opcional)",
        max_length=150,
        required=False,
        widget=forms.TextInput(attrs={"autocomplete": "given-name"}),
    )
    password1 = forms.CharField(
        label="Contraseña",
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        help_text=password_validation.password_validators_help_text_html,
    )
    password2 = forms.CharField(
        label="Repite la contraseña",
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )

    def clean_email(self) -> str:
        email = _email_of(self.cleaned_data["email"])
        if User.objects.filter(email=email).exists():
            raise ValidationError("Ya existe una cuenta con este correo.", code="duplicate_email")
        return email

    def clean(self):
        cleaned = super().clean()
        password1, password2 = cleaned.get("password1"), cleaned.get("password2")
        if password1 and password2 and password1 != password2:
            self.add_error("password2", "Las dos contraseñas no coinciden.")
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
        label="Nombre",
        min_length=1,
        max_length=100,
        help_text="Para reconocerlo después, por ejemplo «Portátil» o «Integración CI».",
    )
    scopes = forms.MultipleChoiceField(
        label="Permisos",
        choices=[(scope, f"{scope} · {SCOPE_LABELS[scope]}") for scope in Scope.values],
        widget=forms.CheckboxSelectMultiple,
        error_messages={"required": "Elige al menos un permiso."},
    )
    source = forms.ChoiceField(
        label="Origen",
        choices=[(source, SOURCE_LABELS[source]) for source in Source.values],
        initial=Source.API,
    )
    expires_in_days = forms.TypedChoiceField(
        label="Caducidad",
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
        label="Código",
        help_text="El código de 8 letras que muestra el plugin, por ejemplo WDJB-MJHT.",
        widget=forms.TextInput(
            attrs={
                "autocomplete": "off",
                "autocapitalize": "characters",
                "spellcheck": "false",
                "maxlength": 20,
                "size": 12,
            }
        ),
        error_messages={"required": "Escribe el código que muestra el plugin."},
    )
    action = forms.ChoiceField(
        choices=[("approve", "Aprobar"), ("deny", "Denegar")],
        required=False,
    )
