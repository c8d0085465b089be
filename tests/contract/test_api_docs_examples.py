"""Every example of docs/api.md's "Every endpoint, by example" works as typed against a
served demo catalogue (the same generator and seed as run.sh's, fewer companies: its
first ones are run.sh's first ones), and answers what the document shows.

The examples run in order in one folder, with $API and $TOKEN as in the README; a
variable an example sets (DEVICE=...) is there for the ones after it. An answer shown
as JSON must come back with the same shape: the same keys at every level, values of the
same JSON types (the first element of a shown list stands for every element), a shown
null standing for any value, and the same `error` codes. An answer shown as text must
come back as typed.
"""

import json
import re
import subprocess
from io import StringIO
from itertools import pairwise
from pathlib import Path

import pytest
from django.core.management import call_command

ROOT = Path(__file__).resolve().parents[2]
SECTION = "## Every endpoint, by example"
BLOCK = re.compile(r"```(\w+)\n(.*?)```", re.DOTALL)
ASSIGNED = re.compile(r"^([A-Z_]+)=", re.MULTILINE)
DEMO_COMPANIES = 40

pytestmark = pytest.mark.django_db(transaction=True)


def examples() -> list[tuple[str, str, str]]:
    """(commands, answer kind, answer) for each example of the section, in order."""
    text = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    section = text.split(SECTION, 1)[1].split("\n## ", 1)[0]
    blocks = BLOCK.findall(section)
    pairs = []
    for (kind, commands), (answer_kind, answer) in pairwise(blocks):
        if kind == "bash" and answer_kind in ("json", "text"):
            pairs.append((commands, answer_kind, answer))
    return pairs


def same_shape(shown, got, where: str = "answer") -> None:
    if shown is None:
        return
    if isinstance(shown, dict):
        assert isinstance(got, dict), f"{where}: {got!r} is not an object"
        assert set(got) == set(shown), f"{where}: keys {sorted(got)}, shown {sorted(shown)}"
        for key, value in shown.items():
            if key == "error":
                assert got[key] == value, f"{where}.error: {got[key]!r}, shown {value!r}"
            same_shape(value, got[key], f"{where}.{key}")
    elif isinstance(shown, list):
        assert isinstance(got, list), f"{where}: {got!r} is not a list"
        if shown:
            assert got, f"{where}: empty, shown with items"
            for index, item in enumerate(got):
                same_shape(shown[0], item, f"{where}[{index}]")
    else:
        assert type(got) is type(shown), f"{where}: {got!r}, shown {shown!r}"


@pytest.fixture
def served_demo(live_server, settings):
    settings.API_RATE_ANONYMOUS = settings.API_RATE_AUTHENTICATED = "1000000/m"
    settings.SITE_URL = live_server.url  # download links point at the site
    call_command(
        "seed_demo", "--companies", str(DEMO_COMPANIES), stdout=StringIO(), stderr=StringIO()
    )
    out = StringIO()
    call_command(
        "issue_token",
        "you@example.com",
        "--scopes",
        "read:logos,read:palettes,write:palettes,write:proposals",
        stdout=out,
    )
    return f"{live_server.url}/v1/public", out.getvalue().strip()


def test_it_answers_every_example_of_the_api_guide_as_shown(served_demo, tmp_path):
    api, token = served_demo
    found = examples()
    assert len(found) >= 20
    for commands, kind, answer in found:
        names = ASSIGNED.findall(commands)
        script = "set -euo pipefail\n[ ! -f vars.sh ] || source vars.sh\n" + commands
        if names:
            script += f"\ndeclare -p {' '.join(names)} >> vars.sh\n"
        result = subprocess.run(
            ["bash", "-c", script],
            cwd=tmp_path,
            env={"PATH": "/usr/bin:/bin", "API": api, "TOKEN": token},
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert result.returncode == 0, f"{commands}\n{result.stderr}"
        if kind == "text":
            assert result.stdout.strip() == answer.strip(), commands
        else:
            same_shape(json.loads(answer), json.loads(result.stdout), commands.strip())
