from django.contrib import admin
from django.urls import include, path, re_path

from accounts import pages as account_pages
from api.views import ApiDocsPage, OpenApiDocumentApi, UnknownPathApi
from directory import pages
from directory.downloads.views import serve_download
from directory.images.views import serve_preview
from mcp_server.llms import llms_txt
from palettes import pages as palette_pages
from proposals import pages as proposal_pages

public_api = [
    path("", include("directory.urls")),
    path("", include("accounts.urls")),
    path("", include("palettes.urls")),
    path("", include("proposals.urls")),
    path("openapi.json", OpenApiDocumentApi.as_view(), name="openapi"),
    path("docs", ApiDocsPage.as_view(url_name="openapi"), name="api-docs"),
    re_path(r"^.*$", UnknownPathApi.as_view()),
]

urlpatterns = [
    path("v1/public/", include(public_api)),
    path("admin/", admin.site.urls),
    # set_language: the language switch on every page posts there.
    path("i18n/", include("django.conf.urls.i18n")),
    path("", pages.home, name="home"),
    path("llms.txt", llms_txt, name="llms-txt"),
    path("companies/<slug:slug>", pages.company_page, name="company-page"),
    path("logos/<slug:slug>", pages.logo_page, name="logo-page"),
    path("logos/<slug:slug>/download", pages.logo_download, name="logo-download"),
    path(
        "logos/<slug:slug>/palette",
        palette_pages.palette_from_logo_page,
        name="palette-from-logo",
    ),
    path("palettes/<str:palette_id>", palette_pages.palette_public_page, name="palette-page"),
    path("examples/logo-link", pages.logo_link_example, name="logo-link-example"),
    path("accounts/login/", account_pages.LoginPage.as_view(), name="login"),
    path("accounts/logout/", account_pages.LogoutPage.as_view(), name="logout"),
    path("accounts/signup/", account_pages.signup_page, name="signup"),
    path("accounts/", include("accounts.site_urls")),
    path("account/tokens", account_pages.tokens_page, name="account-tokens"),
    path(
        "account/tokens/<int:pk>/revoke",
        account_pages.token_revoke_page,
        name="account-token-revoke",
    ),
    path("account/palettes", palette_pages.palettes_page, name="account-palettes"),
    path(
        "account/palettes/<str:palette_id>",
        palette_pages.palette_edit_page,
        name="account-palette",
    ),
    path(
        "account/palettes/<str:palette_id>/visibility",
        palette_pages.palette_visibility_page,
        name="account-palette-visibility",
    ),
    path(
        "account/palettes/<str:palette_id>/delete",
        palette_pages.palette_delete_page,
        name="account-palette-delete",
    ),
    path("account/proposals", proposal_pages.proposals_page, name="proposal-new"),
    path("device", account_pages.device_page, name="device"),
    re_path(r"^media/previews/(?P<name>.+)$", serve_preview, name="preview"),
    path("files/<str:token>", serve_download, name="download-file"),
]

handler400 = "api.middleware.api_handler400"
handler404 = "api.middleware.api_handler404"
handler500 = "api.middleware.api_handler500"
