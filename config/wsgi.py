import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

application = get_wsgi_application()

# Every worker imports this module before it accepts a request. Django would import the
# URLconf (and with it every view and serializer) in the first request, and PostgreSQL
# would plan the search functions' statements then: do both now, and load the embedding
# model and the vectors, so that a worker's first request costs what the others do.
from django.urls import resolve  # noqa: E402

from directory.search.related import warm_up  # noqa: E402

resolve("/v1/public/companies")
warm_up()
