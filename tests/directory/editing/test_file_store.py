"""Storing a logo file by its content: a copy cut short is written again, a copy being
written by someone else is waited for, never deleted under them."""

import threading
import time

import pytest
from django.core.files.storage import default_storage
from django.db import connection

from directory.editing.services import file_store, one_writer
from tests.factories import svg_bytes

pytestmark = pytest.mark.django_db


def test_it_stores_a_file_under_a_name_made_of_its_bytes():
    data = svg_bytes()

    stored = file_store(data=data)

    assert stored.name.startswith(f"logos/{stored.sha256[:2]}/{stored.sha256}")
    assert stored.name.endswith(".svg")
    with default_storage.open(stored.name) as file:
        assert file.read() == data


def test_it_writes_a_copy_cut_short_again():
    data = svg_bytes()
    stored = file_store(data=data)
    with open(default_storage.path(stored.name), "wb") as file:
        file.write(data[:10])  # what a process killed while writing leaves

    assert file_store(data=data) == stored

    with default_storage.open(stored.name) as file:
        assert file.read() == data


def test_it_waits_for_another_writer_of_the_same_file_and_keeps_its_copy():
    data = svg_bytes()
    stored = file_store(data=data)
    path = default_storage.path(stored.name)
    answers = []

    def store():
        try:
            answers.append(file_store(data=data))
        finally:
            connection.close()

    # As another writer of this file holds it while writing.
    with one_writer(stored.name), open(path, "wb") as writer:
        writer.write(data[:10])
        writer.flush()
        other = threading.Thread(target=store)
        other.start()
        time.sleep(0.2)
        assert answers == []  # still waiting for the writer
        writer.write(data[10:])
    other.join(timeout=10)

    assert answers == [stored]
    with default_storage.open(stored.name) as file:
        assert file.read() == data
