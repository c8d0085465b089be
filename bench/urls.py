"""The project's URLs plus /bench/trivial, the ceiling bench/search.py compares with.

/bench/trivial runs through the same middleware, DRF settings, renderer and
exception handler as the catalogue endpoints; it only skips the database.
"""

from django.urls import path
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config import urls as project_urls

TRIVIAL_BODY = {"message": "Hello, World!", "status": "ok", "count": 3}


class TrivialApi(APIView):
    """A fixed small JSON body."""

    def get(self, request: Request) -> Response:
        return Response(TRIVIAL_BODY)


urlpatterns = [path("bench/trivial", TrivialApi.as_view()), *project_urls.urlpatterns]

handler400 = project_urls.handler400
handler404 = project_urls.handler404
handler500 = project_urls.handler500
