"""Storing a logo file by its content: a copy cut short is written again, a copy being
written by someone else is waited for, never deleted under them."""

import threading
import time

from django.core.files import locks
from django.core.files.storage import default_storage

from directory.editing.services import file_store, stored_whole
from tests.factories import svg_bytes


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


def test_it_waits_for_a_copy_another_writer_is_still_writing():
    data = svg_bytes()
    stored = file_store(data=data)
    path = default_storage.path(stored.name)
    with open(path, "wb") as writer:
        # As FileSystemStorage writes: the final name, an exclusive lock until the end.
        locks.lock(writer, locks.LOCK_EX)
        writer.write(data[:10])
        writer.flush()
        answers = []
        reader = threading.Thread(
            target=lambda: answers.append(stored_whole(default_storage, stored.name, len(data)))
        )
        reader.start()
        time.sleep(0.2)
        assert answers == []  # still waiting for the writer
        writer.write(data[10:])
        writer.flush()
        locks.unlock(writer)
    reader.join(timeout=10)

    assert answers == [True]
    with default_storage.open(stored.name) as file:
        assert file.read() == data
