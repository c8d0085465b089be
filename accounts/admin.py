"""The staff back office for people: users log in with their email, there is no username."""

from django.contrib import admin
from django.contrib.auth import admin as auth_admin
from django.contrib.auth import forms as auth_forms

from accounts.models import User


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


@admin.register(User)
class UserAdmin(auth_admin.UserAdmin):
    form = UserChangeForm
    add_form = UserCreationForm
    fieldsets = [
        (None, {"fields": ["email", "password"]}),
        ("Account", {"fields": ["first_name", "plan"]}),
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
    readonly_fields = ["last_login"]
    list_display = ["email", "first_name", "plan", "is_active", "is_staff", "date_joined"]
    list_filter = ["plan", "is_staff", "is_superuser", "is_active"]
    list_per_page = 50
    search_fields = ["email", "first_name"]
    ordering = ["email"]
