"""How the import reads a file: once whole, then again only the entries it imports, from
where the first reading found them (directory/importing/import_survey.py)."""

import json

import pytest

from directory.catalogue.models import Company
from directory.importing import catalogue_stream, import_survey
from directory.importing.catalogue_stream import catalogue_element_text, catalogue_texts
from tests.directory.importing.test_import_directory import (  # noqa: F401
    catalogue,
    company_entry,
    run,
    write,
)

# Characters of one to four bytes, Windows line ends, numbers a buffer can cut anywhere.
TEXT = (
    '{"sectors" :\r\n [ {"slug":"añ","name":"Ñandú € 𝄞"} , 12345, -0.5 ],\r\n'
    ' "version": 1.5e3, "companies":[{"a":"ü\\u00e9\\n"},[1,2e-2],"s",null,  -7 ] }'
)


@pytest.mark.parametrize("chunk", [1, 2, 3, 7, 1 << 20])
def test_it_reads_every_element_back_from_where_the_first_reading_found_it(
    tmp_path, monkeypatch, chunk
):
    monkeypatch.setattr(catalogue_stream, "CHUNK_CHARS", chunk)
    path = tmp_path / "catalogue.json"
    path.write_bytes(TEXT.encode())
    whole = json.loads(TEXT)

    found = list(catalogue_texts(path))

    expected = [
        (key, position, value)
        for key, values in whole.items()
        for position, value in (enumerate(values) if isinstance(values, list) else [(None, values)])
    ]
    assert [(key, position, value) for key, position, value, _, _ in found] == expected
    with path.open("rb") as handle:
        for _, _, value, start, text in found:
            assert catalogue_element_text(handle, start, start + len(text)) == text
            assert json.loads(text) == value


@pytest.mark.django_db
def test_it_imports_a_later_entry_of_a_company_an_earlier_entry_changed(catalogue):  # noqa: F811
    run(catalogue)
    # The second entry is the one imported last time: its digest is the one stored, but
    # the first changes the company before it, so it is imported again.
    write(catalogue, [company_entry(name="Banco Zafiro"), company_entry()])

    assert run(catalogue) == "created 0, updated 2, unchanged 0, failed 0"
    assert Company.objects.get().name == "Banco Ejemplo"


def _written(folder, text: str):
    path = folder / "catalogue.json"
    path.write_bytes(text.encode())
    return path


def _entries_text() -> str:
    """Company entries whose logos look like entries too (a slug and a name), with texts
    that hold what a piece's guess looks for, in characters of one to four bytes."""
    entries = [
        {
            "slug": f"empresa-{number}",
            "name": f"Ñandú {number} 𝄞",
            "about": 'x, {"slug": "a", "name": "b"}, [' * (number % 3),
            "logos": [
                {"slug": f"logo-{number}-{k}", "name": "€", "files": [{"path": "a.svg"}]}
                for k in range(number % 4)
            ],
        }
        for number in range(40)
    ]
    companies = ",\n".join(json.dumps(entry, ensure_ascii=False) for entry in entries)
    return (
        '{"version": 1, "companies": [' + companies + '],\r\n "sectors": [{"slug": "s",'
        ' "name": "Sé"}], "after": {"slug": "z", "name": "z"}}'
    )


@pytest.mark.parametrize("piece", [1, 16, 97, 333, 1 << 22])
def test_it_finds_every_entry_where_a_reading_from_the_start_does_whatever_its_pieces(
    tmp_path, monkeypatch, piece
):
    # Pieces read from a guessed start, the guess often inside an entry: only those that
    # start where the piece before found its next entry count.
    monkeypatch.setattr(import_survey, "PIECE_BYTES", piece)
    path = _written(tmp_path, _entries_text())
    members = []

    survey = import_survey.catalogue_survey(
        path, recheck=True, member=lambda *member: members.append(member)
    )

    found = list(catalogue_texts(path))
    companies = [
        (position, start, start + len(text))
        for key, position, _, start, text in found
        if key == "companies"
    ]
    assert survey.companies == len(companies) == 40
    assert list(survey.todo) == [number for entry in companies for number in entry]
    assert members == [
        (key, position, value) for key, position, value, _, _ in found if key != "companies"
    ]


def test_it_refuses_a_companies_list_that_stops_being_json_in_a_later_piece(tmp_path, monkeypatch):
    monkeypatch.setattr(import_survey, "PIECE_BYTES", 200)
    path = _written(tmp_path, _entries_text().replace('"empresa-30"', '"empresa-30" "'))

    with pytest.raises(catalogue_stream.StreamError):
        import_survey.catalogue_survey(path, recheck=True, member=lambda *member: None)
