import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

application = get_wsgi_application()

# Every worker imports this module before it accepts a request: load the embedding
# model and the vectors now, so that its first related search costs what the others do.
from directory.related import warm_up  # noqa: E402

warm_up()
