import uuid
from datetime import datetime

from django.contrib.auth.models import AbstractBaseUser, BaseUserManager, PermissionsMixin
from django.contrib.postgres.fields import ArrayField
from django.db import models
from django.db.models import Q
from django.utils import timezone


class Plan(models.TextChoices):
    FREE = "FREE", "Free"
    PRO = "PRO", "Pro"
    ENTERPRISE = "ENTERPRISE", "Enterprise"


class UserManager(BaseUserManager):
    use_in_migrations = True

    def create_user(self, email: str, password: str | None = None, **fields) -> "User":
        if not email:
            raise ValueError("A user needs an email address")
        user = self.model(email=self.normalize_email(email).lower(), **fields)
        user.set_password(password)
        user.save(using=self._db)
        return user

    def create_superuser(self, email: str, password: str | None = None, **fields) -> "User":
        fields.update(is_staff=True, is_superuser=True)
        return self.create_user(email, password, **fields)


class User(AbstractBaseUser, PermissionsMixin):
    """A person who logs in with email and password; API tokens act on their behalf."""

    # The id the API shows; the integer primary key stays internal.
    public_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    email = models.EmailField(unique=True)
    first_name = models.CharField(max_length=150, null=True, blank=True)
    plan = models.CharField(max_length=16, choices=Plan.choices, default=Plan.FREE)
    is_staff = models.BooleanField(default=False)
    is_active = models.BooleanField(default=True)
    date_joined = models.DateTimeField(default=timezone.now)

    objects = UserManager()

    USERNAME_FIELD = "email"
    EMAIL_FIELD = "email"
    REQUIRED_FIELDS: list[str] = []

    def __str__(self) -> str:
        return self.email


class Scope(models.TextChoices):
    READ_LOGOS = "read:logos", "Read logos"
    READ_PALETTES = "read:palettes", "Read palettes"
    WRITE_PALETTES = "write:palettes", "Write palettes"
    WRITE_PROPOSALS = "write:proposals", "Write proposals"


class Source(models.TextChoices):
    """Where a request comes from: a token's origin, or X-Service-Source when anonymous."""

    API = "API", "API"
    MCP = "MCP", "MCP server"
    FIGMA = "FIGMA", "Figma plugin"
    CHROME = "CHROME", "Chrome extension"


# The clients that link themselves to an account through the device flow.
PLUGIN_SOURCES = [Source.FIGMA.value, Source.CHROME.value]


class ApiToken(models.Model):
    """A bearer token of one user. Only its SHA-256 is kept: the token is shown once."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(max_length=100)
    prefix = models.CharField(
        max_length=12, help_text="The token's first characters, to recognise it."
    )
    digest = models.CharField(max_length=64, unique=True, editable=False)
    scopes = ArrayField(models.CharField(max_length=32, choices=Scope.choices))
    source = models.CharField(max_length=8, choices=Source.choices, default=Source.API)
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)
    last_used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(scopes__len__gte=1) & Q(scopes__contained_by=Scope.values),
                name="api_token_scopes_known",
            ),
            models.CheckConstraint(
                condition=Q(source__in=Source.values), name="api_token_source_known"
            ),
            models.CheckConstraint(
                condition=Q(digest__regex=r"^[0-9a-f]{64}$"), name="api_token_digest_sha256"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.prefix}… ({self.name})"

    def is_expired(self, at: datetime) -> bool:
        return self.expires_at is not None and self.expires_at <= at


class DeviceCodeStatus(models.TextChoices):
    PENDING = "PENDING", "Waiting for the user"
    APPROVED = "APPROVED", "Approved"
    DENIED = "DENIED", "Denied"
    EXCHANGED = "EXCHANGED", "Exchanged for a token"


USER_CODE_ALPHABET = "BCDFGHJKLMNPQRSTVWXZ"


class DeviceCode(models.Model):
    """One run of the device-link flow (RFC 8628) started by a plugin.

    The plugin keeps the device code (only its SHA-256 is stored) and polls with it;
    the person types the user code on the website and approves or denies.
    """

    digest = models.CharField(max_length=64, unique=True, editable=False)
    user_code = models.CharField(max_length=8, unique=True)
    source = models.CharField(
        max_length=8,
        choices=[(Source.FIGMA, Source.FIGMA.label), (Source.CHROME, Source.CHROME.label)],
    )
    client_name = models.CharField(max_length=60, blank=True, default="")
    status = models.CharField(
        max_length=10, choices=DeviceCodeStatus.choices, default=DeviceCodeStatus.PENDING
    )
    interval = models.PositiveSmallIntegerField(
        help_text="Seconds the client must wait between polls."
    )
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField()
    last_polled_at = models.DateTimeField(null=True, blank=True)
    user = models.ForeignKey(
        User, on_delete=models.CASCADE, null=True, blank=True, related_name="device_codes"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    token = models.OneToOneField(
        ApiToken, on_delete=models.SET_NULL, null=True, blank=True, related_name="device_code"
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(user_code__regex=rf"^[{USER_CODE_ALPHABET}]{{8}}$"),
                name="device_code_user_code_format",
            ),
            models.CheckConstraint(
                condition=Q(source__in=[Source.FIGMA, Source.CHROME]),
                name="device_code_source_plugin",
            ),
            # Every decision names who made it and when.
            models.CheckConstraint(
                condition=Q(status=DeviceCodeStatus.PENDING)
                | (Q(user__isnull=False) & Q(decided_at__isnull=False)),
                name="device_code_decision_has_user",
            ),
        ]

    def __str__(self) -> str:
        return self.display_user_code

    @property
    def display_user_code(self) -> str:
        return f"{self.user_code[:4]}-{self.user_code[4:]}"

    def is_expired(self, at: datetime) -> bool:
        return self.expires_at <= at
