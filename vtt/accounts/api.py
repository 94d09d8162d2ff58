"""The caller's own account, and API tokens for scripts."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import authenticate
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.authtoken.models import Token
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView

from vtt.accounts.services import (
    login_check,
    login_failed,
    login_succeeded,
    user_set_language,
)
from vtt.core import serializers
from vtt.core.ratelimit import RateLimited


class MeSerializer(serializers.Serializer):
    id = serializers.IntegerField(read_only=True)
    username = serializers.CharField(read_only=True)
    display_name = serializers.CharField(read_only=True)
    language = serializers.ChoiceField(choices=[c for c, _n in settings.LANGUAGES])


class TokenRequestSerializer(serializers.Serializer):
    username = serializers.CharField()
    password = serializers.CharField(style={"input_type": "password"})


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField()


class Me(APIView):
    @extend_schema(responses=MeSerializer)
    def get(self, request: Request) -> Response:
        return Response(MeSerializer(request.user).data)

    @extend_schema(request=MeSerializer, responses=MeSerializer)
    def patch(self, request: Request) -> Response:
        serializer = MeSerializer(data=request.data, partial=True)
        serializer.is_valid(raise_exception=True)
        if "language" in serializer.validated_data:
            user_set_language(user=request.user, language=serializer.validated_data["language"])
        return Response(MeSerializer(request.user).data)


class AuthToken(APIView):
    """Exchange a username and password for an API token (``Authorization: Token <key>``)."""

    permission_classes = [AllowAny]
    authentication_classes: list = []
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "login"

    @extend_schema(request=TokenRequestSerializer, responses={200: TokenSerializer})
    def post(self, request: Request) -> Response:
        data = TokenRequestSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        who = {
            "address": request.META.get("REMOTE_ADDR", "?"),
            "username": data.validated_data["username"],
        }
        try:
            # The same limits as the login page: guessing through the API is no faster.
            login_check(**who)
        except RateLimited as exc:
            return Response(
                exc.as_dict(),
                status=status.HTTP_429_TOO_MANY_REQUESTS,
                headers={"Retry-After": str(exc.extra["retry_after"])},
            )
        user = authenticate(
            request._request,
            username=data.validated_data["username"],
            password=data.validated_data["password"],
        )
        if user is None:
            login_failed(**who)
            return Response(
                {"detail": _("Incorrect username or password."), "code": "bad_credentials"},
                status=status.HTTP_400_BAD_REQUEST,
            )
        login_succeeded(**who)
        token, _created = Token.objects.get_or_create(user=user)
        return Response({"token": token.key})


class AuthTokenRevoke(APIView):
    @extend_schema(request=None, responses={204: OpenApiResponse(description="Token deleted")})
    def delete(self, request: Request) -> Response:
        Token.objects.filter(user=request.user).delete()
        return Response(status=status.HTTP_204_NO_CONTENT)
