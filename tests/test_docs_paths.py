"""Every file the docs and the code's comments name exists.

A path is read wherever it starts with one of the repository's top-level folders
(`directory/search/selectors.py`, `tests/common/test_sql_files.py`, `bench/*.py`, `docs/sql.md`), in
README.md and docs/*.md, in the comments and docstrings of Python files and in the
comments of SQL and shell files; and a Markdown link's target, relative to its page.
What git ignores is what the project makes as it runs (`bench/results/search-<date>.json`,
`.local/`, `tests/artifacts/`): such a path names an output, not a file of the
repository, and needs no file. A glob must match a file. Nothing may point outside the
repository: the README and the docs stand alone.
"""

import re
import subprocess
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# What a path may hold; it stops at a placeholder (`<name>`, `{id}`) or a space.
PATH_CHARS = r"[A-Za-z0-9_.*/-]"
# A page named without its folder (`sql.md`, `performance.md`) must be one of ours.
PAGE_NAME = re.compile(r"(?<![\w./-])([\w-]+\.md)\b")
MARKDOWN_LINK = re.compile(r"\]\(([^)\s]+)\)")
TRIPLE_QUOTED = re.compile(r"(\"{3}|'{3})(.*?)\1", re.DOTALL)
QUOTED = re.compile(r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'')
OUTSIDE = re.compile(r"(?:\.\./|/work/)shared\b")


def git_files(*options: str) -> list[str]:
    result = subprocess.run(
        ["git", "ls-files", "-z", *options], cwd=ROOT, capture_output=True, check=True
    )
    return [name for name in result.stdout.decode().split("\0") if name]


@cache
def repository_files() -> tuple[str, ...]:
    """The files of the checkout: tracked, or new and not ignored."""
    return tuple(git_files("--cached", "--others", "--exclude-standard"))


@cache
def path_pattern() -> re.Pattern:
    folders = sorted({name.split("/")[0] for name in repository_files() if "/" in name})
    lead = "|".join(re.escape(folder) for folder in folders)
    return re.compile(rf"(?<![\w./-])((?:{lead})/{PATH_CHARS}*)")


def ignored(paths: list[str]) -> set[str]:
    """The paths git ignores, as a file or as a folder (`tests/artifacts`)."""
    asked = [form for path in paths for form in (path, f"{path}/")]
    result = subprocess.run(
        ["git", "check-ignore", "--no-index", "--stdin"],
        cwd=ROOT,
        input="\n".join(asked),
        capture_output=True,
        text=True,
    )
    return {path.rstrip("/") for path in result.stdout.splitlines()}


def exists(path: str) -> bool:
    if "*" in path:
        return any(ROOT.glob(path))
    return (ROOT / path).exists()


def python_prose(text: str) -> str:
    """The comments and triple-quoted texts (docstrings) of a Python file: what it says,
    not what it runs. Read by patterns rather than by the tokenizer, which takes seconds
    over the whole tree."""
    texts = [body for _, body in TRIPLE_QUOTED.findall(text)]
    code = TRIPLE_QUOTED.sub("", text)
    comments = [QUOTED.sub("", line).partition("#")[2] for line in code.splitlines()]
    return "\n".join(texts + comments)


def comment_prose(text: str, marker: str) -> str:
    return "\n".join(line.split(marker, 1)[1] for line in text.splitlines() if marker in line)


@cache
def prose() -> dict[str, str]:
    """What each page and source file says, by its path."""
    said = {}
    for name in repository_files():
        if name == "README.md" or re.fullmatch(r"docs/[^/]+\.md", name):
            said[name] = (ROOT / name).read_text(encoding="utf-8")
        elif name.endswith(".py"):
            said[name] = python_prose((ROOT / name).read_text(encoding="utf-8"))
        elif name.endswith(".sql"):
            said[name] = comment_prose((ROOT / name).read_text(encoding="utf-8"), "--")
        elif name.endswith(".sh"):
            said[name] = comment_prose((ROOT / name).read_text(encoding="utf-8"), "#")
    return said


def cited_paths(text: str) -> set[str]:
    paths = set()
    for match in path_pattern().finditer(text):
        path = match.group(1).rstrip(".")
        # `api/` and `api` name the same folder.
        paths.add(path.rstrip("/") or path)
    return paths


def linked_paths(page: str, text: str) -> set[str]:
    """Markdown links to files, as paths from the repository's root."""
    paths = set()
    for target in MARKDOWN_LINK.findall(text):
        target = target.split("#")[0]
        if not target or re.match(r"[a-z]+:", target):
            continue
        path = (ROOT / page).parent.joinpath(target).resolve()
        paths.add(str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else target)
    return paths


def missing_paths() -> dict[str, list[str]]:
    pages = {Path(name).name for name in repository_files() if name.endswith(".md")}
    cited = {}
    for name, text in prose().items():
        paths = cited_paths(text)
        if name.endswith(".md"):
            paths |= linked_paths(name, text)
        missing = {path for path in paths if not exists(path)}
        missing |= {page for page in PAGE_NAME.findall(text) if page not in pages}
        cited[name] = sorted(missing)
    outputs = ignored(sorted({path for paths in cited.values() for path in paths}))
    missing = {name: [p for p in paths if p not in outputs] for name, paths in cited.items()}
    return {name: paths for name, paths in missing.items() if paths}


def test_it_finds_a_file_for_every_path_the_docs_and_comments_name():
    assert missing_paths() == {}


def test_it_reads_paths_in_prose_and_stops_at_placeholders_and_punctuation():
    text = (
        "See `directory/demo/catalogue.py`, bench/search.py. Results go to "
        "bench/results/<name>-<date>.json; tests live in tests/<app>/test_<thing>.py "
        "(docs/sql.md), https://example.org/docs/nothing.md and /usr/docs/x.md do not count."
    )

    assert cited_paths(text) == {
        "directory/demo/catalogue.py",
        "bench/search.py",
        "bench/results",
        "tests",
        "docs/sql.md",
    }


def test_it_counts_a_missing_file_as_missing_and_an_ignored_output_as_an_output():
    paths = ["directory/nothing_here.py", "bench/results/search-20261127.json", "bench/*.py"]

    assert [exists(path) for path in paths] == [False, False, True]
    assert ignored(paths) == {"bench/results/search-20261127.json"}


def test_it_reads_the_comments_and_docstrings_of_python_not_its_code():
    quotes = '"' * 3
    source = f'{quotes}Module: docs/a.md.{quotes}\nPATH = "docs/b.md"  # docs/c.md\n'

    assert cited_paths(python_prose(source)) == {"docs/a.md", "docs/c.md"}


def test_it_cites_nothing_outside_the_repository():
    outside = {name: OUTSIDE.findall(text) for name, text in prose().items()}

    assert {name: found for name, found in outside.items() if found} == {}
