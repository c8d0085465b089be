"""The catalogue's endpoints under /v1/public, each served by the room that owns it. Their
order here is the order of the OpenAPI document."""

from django.urls import path

from directory.catalogue import views as catalogue
from directory.colors import views as colors
from directory.downloads import views as downloads
from directory.images import views as images
from directory.search import views as search

urlpatterns = [
    path("companies", search.CompanyListApi.as_view(), name="company-list"),
    path("companies/<str:slug>", catalogue.CompanyDetailApi.as_view(), name="company-detail"),
    path("companies/<str:slug>/colors", colors.CompanyColorsApi.as_view(), name="company-colors"),
    path("domains", catalogue.DomainListApi.as_view(), name="domain-list"),
    # path: a pasted web address arrives with its slashes (%2F is decoded before routing).
    path("domains/<path:domain>", catalogue.DomainLookupApi.as_view(), name="domain-lookup"),
    path("img/<str:identifier>", images.LogoImageApi.as_view(), name="logo-image"),
    path("logos", search.LogoListApi.as_view(), name="logo-list"),
    path("logos/<str:id>", catalogue.LogoDetailApi.as_view(), name="logo-detail"),
    path("logos/<str:id>/download", downloads.LogoDownloadApi.as_view(), name="logo-download"),
]
