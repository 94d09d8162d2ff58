"""The journal under /api/campaigns/<pk>/journal/: every view authorises, then calls services."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from vtt.core import serializers
from vtt.core.api import OBJECT_LIST
from vtt.core.commands import respond
from vtt.journal import commands, selectors, services
from vtt.journal.models import BODY_MAX, TITLE_MAX, Sharing
from vtt.maps import uploads
from vtt.permissions import Action, authorize


class JournalEntryRequest(serializers.Serializer):
    title = serializers.CharField(max_length=TITLE_MAX)
    body = serializers.CharField(max_length=BODY_MAX, required=False, allow_blank=True)
    sharing = serializers.ChoiceField(choices=Sharing.choices, required=False)
    readers = serializers.ListField(child=serializers.IntegerField(), required=False)
    shared_with_referee = serializers.BooleanField(required=False)
    room_id = serializers.IntegerField(required=False, allow_null=True)


def _valid(request: Request, *, partial: bool) -> dict:
    shape = JournalEntryRequest(data=request.data, partial=partial)
    shape.is_valid(raise_exception=True)
    return dict(shape.validated_data)


class Entries(APIView):
    @extend_schema(responses=OBJECT_LIST, operation_id="campaigns_journal_list")
    def get(self, request: Request, pk: int) -> Response:
        """The entries and notes the caller may read."""
        membership = authorize(request.user, pk, Action.VIEW)
        return Response(
            [selectors.entry_data(e, membership) for e in selectors.visible(membership)]
        )

    @extend_schema(request=JournalEntryRequest, responses={201: OpenApiTypes.OBJECT})
    def post(self, request: Request, pk: int) -> Response:
        """The referee writes an entry; a player writes a private note."""
        membership = authorize(request.user, pk, Action.PLAY)
        entry = services.entry_create(membership, **_valid(request, partial=False))
        return Response(selectors.entry_data(entry, membership), status=201)


class EntryDetail(APIView):
    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request: Request, pk: int, jid: int) -> Response:
        membership = authorize(request.user, pk, Action.VIEW)
        return Response(selectors.entry_data(selectors.entry_for(membership, jid), membership))

    @extend_schema(request=JournalEntryRequest, responses=OpenApiTypes.OBJECT)
    def patch(self, request: Request, pk: int, jid: int) -> Response:
        membership = authorize(request.user, pk, Action.PLAY)
        entry = selectors.entry_for(membership, jid)
        entry = services.entry_update(membership, entry, **_valid(request, partial=True))
        return Response(selectors.entry_data(entry, membership))

    @extend_schema(request=None, responses={204: None})
    def delete(self, request: Request, pk: int, jid: int) -> Response:
        membership = authorize(request.user, pk, Action.PLAY)
        services.entry_delete(membership, selectors.entry_for(membership, jid))
        return Response(status=204)


class EntryImages(APIView):
    parser_classes = [MultiPartParser, FormParser]

    @extend_schema(
        request={"multipart/form-data": {"type": "object", "properties": {"image": {}}}},
        responses={201: OpenApiTypes.OBJECT, 400: OpenApiResponse(), 413: OpenApiResponse()},
    )
    def post(self, request: Request, pk: int, jid: int) -> Response:
        """Attach an image, checked as a map background is."""
        membership = authorize(request.user, pk, Action.PLAY)
        entry = selectors.entry_for(membership, jid)
        services.check_can_edit(membership, entry)  # the role before the body is read
        handler = uploads.guard(request._request)
        data = request.data if hasattr(request.data, "get") else {}
        uploads.check(handler)
        services.image_add(membership, entry, data.get("image"), data.get("label", ""))
        return Response(selectors.entry_data(entry, membership), status=201)


class EntryImageDetail(APIView):
    @extend_schema(request=None, responses={204: None})
    def delete(self, request: Request, pk: int, jid: int, image_id: int) -> Response:
        membership = authorize(request.user, pk, Action.PLAY)
        entry = selectors.entry_for(membership, jid)
        services.image_delete(membership, entry, image_id)
        return Response(status=204)


class EntryShow(APIView):
    @extend_schema(request=None, responses={201: OpenApiTypes.OBJECT})
    def post(self, request: Request, pk: int, jid: int) -> Response:
        """Show the entry to its addressees now (the table command ``journal.show``)."""
        return respond(request, commands.journal_show, pk=pk, jid=jid)
