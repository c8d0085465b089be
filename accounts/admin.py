"""The staff back office for people and their credentials.

Users log in with their email, there is no username. Tokens are never made or
edited here (the secret could not be shown safely) and their hash is never
shown; staff revoke them. Device codes can be approved or denied by support
staff, through the same service the website uses.
"""

from django.contrib import admin, messages
from django.contrib.auth import admin as auth_admin
from django.contrib.auth import forms as auth_forms
from django.utils import timezone

from accounts.models import ApiToken, DeviceCode, DeviceCodeStatus, User
from accounts.services import (
    DeviceCodeNotPending,
    device_code_decide,
    token_revoke,
    user_tokens_forget,
)

LIST_PER_PAGE = 50
TOKEN_FIELDS = [
    "name",
    "prefix",
    "scopes",
    "source",
    "created_at",
    "last_used_at",
    "expires_at",
    "revoked_at",
]


def _normal_email(email: str) -> str:
    # As UserManager.create_user stores it: logging in looks the address up exactly.
    return User.objects.normalize_email(email).lower()


class UserCreationForm(auth_forms.AdminUserCreationForm):
    class Meta:
        model = User
        fields = ["email"]

    def clean_email(self) -> str:
        return _normal_email(self.cleaned_data["email"])


class UserChangeForm(auth_forms.UserChangeForm):
    class Meta:
        model = User
        fields = [
            "email",
            "password",
            "first_name",
            "plan",
            "is_active",
            "is_staff",
            "is_superuser",
            "groups",
            "user_permissions",
            "date_joined",
        ]

    def clean_email(self) -> str:
        return _normal_email(self.cleaned_data["email"])


class ApiTokenInline(admin.TabularInline):
    model = ApiToken
    fields = TOKEN_FIELDS
    readonly_fields = TOKEN_FIELDS
    extra = 0
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(User)
class UserAdmin(auth_admin.UserAdmin):
    inlines = [ApiTokenInline]
    form = UserChangeForm
    add_form = UserCreationForm
    fieldsets = [
        (None, {"fields": ["email", "password"]}),
        ("Account", {"fields": ["public_id", "first_name", "plan"]}),
        (
            "Permissions",
            {
                "fields": [
                    "is_active",
                    "is_staff",
                    "is_superuser",
                    "groups",
                    "user_permissions",
                ]
            },
        ),
        ("Dates", {"fields": ["date_joined", "last_login"]}),
    ]
    add_fieldsets = [
        (
            None,
            {
                "classes": ["wide"],
                "fields": ["email", "usable_password", "password1", "password2"],
            },
        ),
    ]
    readonly_fields = ["public_id", "last_login"]
    list_display = ["email", "first_name", "plan", "is_active", "is_staff", "date_joined"]
    list_filter = ["plan", "is_staff", "is_superuser", "is_active"]
    list_per_page = 50
    search_fields = ["email", "first_name"]
    ordering = ["email"]

    def get_inlines(self, request, obj):
        # Tokens belong to an existing user: the add page has none to show.
        return self.inlines if obj is not None else []

    # A token's cached lookup carries its user's plan and active flag
    # (accounts/selectors.py): staff edits must reach the API at once.
    def save_model(self, request, obj, form, change) -> None:
        super().save_model(request, obj, form, change)
        if change:
            user_tokens_forget(user_ids=[obj.pk])

    def delete_model(self, request, obj) -> None:
        user_tokens_forget(user_ids=[obj.pk])
        super().delete_model(request, obj)

    def delete_queryset(self, request, queryset) -> None:
        user_tokens_forget(user_ids=list(queryset.values_list("pk", flat=True)))
        super().delete_queryset(request, queryset)


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    list_display = ["prefix", "name", "user", "source", "state", *TOKEN_FIELDS[4:]]
    list_filter = ["source", ("revoked_at", admin.EmptyFieldListFilter)]
    list_select_related = ["user"]
    list_per_page = LIST_PER_PAGE
    search_fields = ["prefix", "user__email", "name"]
    fields = ["user", *TOKEN_FIELDS]
    readonly_fields = ["user", *TOKEN_FIELDS]
    actions = ["revoke"]

    def has_add_permission(self, request) -> bool:
        return False

    def get_search_results(self, request, queryset, search_term):
        # Staff paste whole tokens from support tickets: match them on their display prefix.
        return super().get_search_results(request, queryset, search_term.strip()[:12])

    @admin.display(description="State")
    def state(self, token: ApiToken) -> str:
        if token.revoked_at is not None:
            return "revoked"
        return "expired" if token.is_expired(timezone.now()) else "live"

    @admin.action(description="Revoke the selected tokens")
    def revoke(self, request, queryset):
        live = list(queryset.filter(revoked_at__isnull=True))
        for token in live:
            token_revoke(token=token)
        self.message_user(request, f"Revoked {len(live)} token(s).", messages.SUCCESS)


@admin.register(DeviceCode)
class DeviceCodeAdmin(admin.ModelAdmin):
    list_display = [
        "display_user_code",
        "status",
        "expired",
        "source",
        "client_name",
        "user",
        "created_at",
        "expires_at",
    ]
    list_filter = ["status", "source"]
    list_select_related = ["user"]
    list_per_page = LIST_PER_PAGE
    search_fields = ["user_code", "client_name", "user__email"]
    fields = [
        "display_user_code",
        "status",
        "source",
        "client_name",
        "user",
        "created_at",
        "expires_at",
        "interval",
        "last_polled_at",
        "decided_at",
        "token",
    ]
    readonly_fields = [name for name in fields if name != "user"]
    autocomplete_fields = ["user"]
    actions = ["approve", "deny"]

    def has_add_permission(self, request) -> bool:
        return False

    def get_readonly_fields(self, request, obj=None):
        # The person a code is for may be set by support only while it waits for a decision.
        if obj is not None and obj.status != DeviceCodeStatus.PENDING:
            return self.fields
        return self.readonly_fields

    def get_search_results(self, request, queryset, search_term):
        # User codes are shown with a dash and stored without it.
        return super().get_search_results(request, queryset, search_term.replace("-", ""))

    @admin.display(description="User code", ordering="user_code")
    def display_user_code(self, device_code: DeviceCode) -> str:
        return device_code.display_user_code

    @admin.display(description="Expired", boolean=True)
    def expired(self, device_code: DeviceCode) -> bool:
        return device_code.is_expired(timezone.now())

    @admin.action(description="Approve for the user set on each code")
    def approve(self, request, queryset):
        self._decide(request, queryset, approve=True)

    @admin.action(description="Deny the selected codes")
    def deny(self, request, queryset):
        self._decide(request, queryset, approve=False)

    def _decide(self, request, queryset, *, approve: bool) -> None:
        decided, refused = 0, []
        for device_code in queryset.select_related("user"):
            # An approval issues a token for the code's user, so support must name that
            # person first; a denial made by staff is recorded as theirs.
            user = device_code.user if approve else device_code.user or request.user
            if user is None:
                refused.append(f"{device_code.display_user_code}: set its user first")
                continue
            try:
                device_code_decide(device_code=device_code, user=user, approve=approve)
            except DeviceCodeNotPending as error:
                refused.append(f"{device_code.display_user_code}: {error.reason}")
                continue
            decided += 1
        verb = "Approved" if approve else "Denied"
        self.message_user(request, f"{verb} {decided} code(s).", messages.SUCCESS)
        if refused:
            self.message_user(request, "Not changed: " + "; ".join(refused), messages.WARNING)
