"""The website's pages for confirming a sign-up and for passwords, under /accounts/."""

from django.urls import path

from accounts import pages, password_pages

urlpatterns = [
    path("signup/sent/", pages.signup_sent_page, name="signup-sent"),
    path(
        "signup/confirm/<uidb64>/<token>/",
        pages.signup_confirm_page,
        name="signup-confirm",
    ),
    path(
        "password/change/",
        password_pages.PasswordChangePage.as_view(),
        name="password-change",
    ),
    path(
        "password/change/done/",
        password_pages.password_change_done_page,
        name="password-change-done",
    ),
    path("password/reset/", password_pages.PasswordResetPage.as_view(), name="password-reset"),
    path(
        "password/reset/sent/",
        password_pages.password_reset_sent_page,
        name="password-reset-sent",
    ),
    path(
        "password/reset/<uidb64>/<token>/",
        password_pages.PasswordResetConfirmPage.as_view(),
        name="password-reset-confirm",
    ),
    path(
        "password/reset/done/",
        password_pages.password_reset_done_page,
        name="password-reset-done",
    ),
]
