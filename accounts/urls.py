from django.urls import path

from accounts import views

urlpatterns = [
    path("me", views.MeApi.as_view(), name="me"),
    path("me/token", views.MeTokenApi.as_view(), name="me-token"),
    path("device/code", views.DeviceCodeApi.as_view(), name="device-code"),
    path("device/token", views.DeviceTokenApi.as_view(), name="device-token"),
]
