from django.urls import path

from palettes import views

urlpatterns = [
    path("palettes", views.PaletteListApi.as_view(), name="palette-list"),
    path("palettes/<str:id>", views.PaletteDetailApi.as_view(), name="palette-detail"),
]
