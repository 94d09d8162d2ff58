"""API token authentication in one hand-written query (vtt/core/fastsql.py): every API call
pays it, and DRF's ORM version cost more CPU than the rest of a roll's authorisation."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication
from rest_framework.authtoken.models import Token

from vtt.accounts.models import User
from vtt.core import fastsql


class FastTokenAuthentication(TokenAuthentication):
    """DRF's ``TokenAuthentication`` (same header, same errors) with the token and its user
    read in one statement."""

    def authenticate_credentials(self, key: str) -> tuple[Any, Any]:
        users = fastsql.loader(User, "u")
        row = fastsql.fetch_one(
            f"SELECT {users.columns} FROM {fastsql.table(Token)} t "  # noqa: S608
            f"JOIN {fastsql.table(User)} u ON u.id = t.user_id WHERE t.key = %s",
            [key],
        )
        if row is None:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        user = users.load(row)
        if not user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        token = Token(key=key, user_id=user.pk)
        token._state.adding = False
        token._state.fields_cache["user"] = user
        return user, token
