"""Refusing an oversized upload without holding it: a limit on the bytes read.

The request's declared length is checked first (far over the limit: refused before
a byte of the body is read); then an upload handler counts the file's bytes as they
stream in and stops the parse at the first byte past the limit, before the file is
complete, whatever the client declared.
"""

from django.core.files.uploadhandler import (
    FileUploadHandler,
    StopUpload,
    TemporaryFileUploadHandler,
)
from django.http import HttpRequest

from proposals.models import MAX_FILE_BYTES

# The other form fields are at most a few KiB (contract limits); this leaves room for
# them and the multipart boundaries without letting a much larger body through.
FORM_OVERHEAD_BYTES = 64 * 1024


class FileTooLarge(Exception):
    pass


class _SizeLimit(FileUploadHandler):
    def __init__(self, request: HttpRequest, limit: int) -> None:
        super().__init__(request)
        self.limit = limit
        self.exceeded = False

    def receive_data_chunk(self, raw_data: bytes, start: int) -> bytes:
        if start + len(raw_data) > self.limit:
            self.exceeded = True
            # The declared length was checked: what is left of the body is small, so it
            # is read and dropped (not kept) and the client gets its answer cleanly.
            raise StopUpload(connection_reset=False)
        return raw_data

    def file_complete(self, file_size: int) -> None:
        return None


def limit_upload(request: HttpRequest, *, limit: int = MAX_FILE_BYTES) -> _SizeLimit:
    """Installs the limit on a request whose body has not been read yet."""
    declared = int(request.META.get("CONTENT_LENGTH") or 0)
    if declared > limit + FORM_OVERHEAD_BYTES:
        raise FileTooLarge
    guard = _SizeLimit(request, limit)
    # Files go to a temporary file on disk, never whole into memory.
    request.upload_handlers = [guard, TemporaryFileUploadHandler(request)]
    return guard
