"""Refuse an oversized upload before reading it: by its Content-Length when it has one, and by
counting bytes as they stream in otherwise. The image checks proper live in ``images``."""

from __future__ import annotations

from django.core.files.uploadhandler import FileUploadHandler, StopUpload
from django.http import HttpRequest

from vtt.maps import images

MULTIPART_SLACK = 64 * 1024  # boundaries, headers and the CSRF field around the file


class LimitHandler(FileUploadHandler):
    """First in the chain: stops the upload as soon as a file passes the limit."""

    too_large = False

    def receive_data_chunk(self, raw_data: bytes, start: int) -> bytes | None:
        if start + len(raw_data) > images.max_bytes():
            self.too_large = True
            raise StopUpload(connection_reset=True)
        return raw_data

    def file_complete(self, file_size: int):
        return None


def guard(request: HttpRequest) -> LimitHandler:
    """Call before touching ``request.FILES`` (or DRF's ``request.data``)."""
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        length = 0
    if length > images.max_bytes() + MULTIPART_SLACK:
        raise images.too_large_bytes()
    handler = LimitHandler(request)
    request.upload_handlers.insert(0, handler)
    return handler


def check(handler: LimitHandler) -> None:
    if handler.too_large:
        raise images.too_large_bytes()
