"""What a worker does before it accepts a request (config/wsgi.py)."""

import subprocess
import sys

from django.conf import settings


def test_it_imports_the_urlconf_and_its_views_before_the_first_request():
    # A process of its own: importing config.wsgi here would leave nothing to observe.
    found = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, config.wsgi; print('directory.search.views' in sys.modules)",
        ],
        cwd=settings.BASE_DIR,
        capture_output=True,
        text=True,
        check=True,
    )

    assert found.stdout.strip().splitlines()[-1] == "True"
