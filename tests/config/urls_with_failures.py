"""The real URLs plus two endpoints that fail, to see how failures reach a client."""

from django.db import OperationalError
from django.urls import include, path
from rest_framework.views import APIView

from config.urls import handler400, handler404, handler500  # noqa: F401


class BrokenApi(APIView):
    def get(self, request):
        raise RuntimeError("secret internals: /etc/app/settings.py line 12")


class DatabaseDownApi(APIView):
    def get(self, request):
        raise OperationalError("connection to server at 127.0.0.1 failed")


urlpatterns = [
    path("v1/public/_test/broken", BrokenApi.as_view()),
    path("v1/public/_test/database-down", DatabaseDownApi.as_view()),
    path("", include("config.urls")),
]
