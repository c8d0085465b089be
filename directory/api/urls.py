from django.urls import path

from directory.api import views

urlpatterns = [
    path("companies", views.CompanyListApi.as_view(), name="company-list"),
    path("companies/<str:slug>", views.CompanyDetailApi.as_view(), name="company-detail"),
    path("companies/<str:slug>/colors", views.CompanyColorsApi.as_view(), name="company-colors"),
    path("domains", views.DomainListApi.as_view(), name="domain-list"),
    # path: a pasted web address arrives with its slashes (%2F is decoded before routing).
    path("domains/<path:domain>", views.DomainLookupApi.as_view(), name="domain-lookup"),
    path("img/<str:identifier>", views.LogoImageApi.as_view(), name="logo-image"),
    path("logos", views.LogoListApi.as_view(), name="logo-list"),
    path("logos/<str:id>", views.LogoDetailApi.as_view(), name="logo-detail"),
    path("logos/<str:id>/download", views.LogoDownloadApi.as_view(), name="logo-download"),
]
