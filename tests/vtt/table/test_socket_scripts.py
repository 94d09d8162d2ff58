"""Scripts at the table: the socket authenticated by an API token header (no Origin), and
Accept-Language deciding a script's language on the socket and the API alike, while a browser
keeps the saved language (vtt/core/socket_auth.py, vtt/accounts/middleware.py)."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from rest_framework.authtoken.models import Token

from tests.helpers import session_cookie
from tests.sockets import command, next_of
from vtt.accounts.middleware import accepted_language
from vtt.table.models import Roll

pytestmark = pytest.mark.django_db(transaction=True)

RU_DENIED = "Вашей роли в этой кампании это не разрешено."
EN_DENIED = "Your role in this campaign does not allow this."


def _token(user) -> str:
    return Token.objects.get_or_create(user=user)[0].key


@pytest.mark.asyncio
async def token_for(user) -> str:
    return await database_sync_to_async(_token)(user)


@pytest.mark.asyncio
async def open_real(campaign_id: int, headers: list[tuple[bytes, bytes]]):
    """The application daphne serves (origin check, token and session auth); the communicator
    and whether the handshake was accepted."""
    from vtt.asgi import application

    comm = WebsocketCommunicator(application, f"/ws/campaigns/{campaign_id}/", headers)
    connected, _code = await comm.connect(timeout=5)
    return comm, connected


def bearer(key: str) -> tuple[bytes, bytes]:
    return (b"authorization", f"Token {key}".encode())


# --- the token socket -------------------------------------------------------------------------


@pytest.mark.asyncio
async def test_a_script_follows_and_acts_with_its_token_and_no_origin(table):
    key = await token_for(table.player)
    bot, connected = await open_real(table.campaign.pk, [bearer(key)])
    assert connected
    welcome = await next_of(bot, "welcome")
    assert welcome["user"]["id"] == table.player.pk and welcome["user"]["role"] == "player"
    await bot.send_json_to({"type": "hello", "last_seq": 0})
    assert (await next_of(bot, "replay"))["cursor"] == 0
    ack = await command(bot, "roll", "bot-1", {"notation": "1d6"})
    assert ack["type"] == "ack" and ack["status"] == 201
    event = (await next_of(bot, "event"))["event"]
    assert event["kind"] == "roll" and event["actor"]["id"] == table.player.pk
    await bot.disconnect()


@pytest.mark.asyncio
async def test_the_token_decides_who_even_with_a_session_cookie(table):
    """Token and cookie both sent (a script reusing a browser's jar): the token is the user."""
    key = await token_for(table.observer)
    cookie = await database_sync_to_async(session_cookie)(table.referee)
    bot, connected = await open_real(table.campaign.pk, [bearer(key), (b"cookie", cookie.encode())])
    assert connected
    assert (await next_of(bot, "welcome"))["user"]["id"] == table.observer.pk
    await bot.disconnect()


@pytest.mark.asyncio
@pytest.mark.parametrize(
    "header", [b"Token nope", b"Token", b"Token a b", b"token  ", b"TOKEN x"], ids=str
)
async def test_a_bad_token_refuses_the_handshake(table, header):
    _bot, connected = await open_real(table.campaign.pk, [(b"authorization", header)])
    assert not connected
    # a bad token is refused even beside a valid session and the site's own Origin
    cookie = await database_sync_to_async(session_cookie)(table.referee)
    _page, connected = await open_real(
        table.campaign.pk,
        [
            (b"authorization", header),
            (b"cookie", cookie.encode()),
            (b"origin", b"http://localhost"),
        ],
    )
    assert not connected


@pytest.mark.asyncio
async def test_an_inactive_users_token_is_refused(table):
    key = await token_for(table.player)
    table.player.is_active = False
    await sync_to_async(table.player.save)()
    _bot, connected = await open_real(table.campaign.pk, [bearer(key)])
    assert not connected


@pytest.mark.asyncio
async def test_a_token_does_not_excuse_a_foreign_origin(table):
    """The Origin rule stays for anything that sends one: a page elsewhere is refused."""
    key = await token_for(table.player)
    _bot, connected = await open_real(
        table.campaign.pk, [bearer(key), (b"origin", b"https://evil.example.com")]
    )
    assert not connected
    # without a token, no Origin is still refused (a session alone is a browser's)
    cookie = await database_sync_to_async(session_cookie)(table.player)
    _page, connected = await open_real(table.campaign.pk, [(b"cookie", cookie.encode())])
    assert not connected
    # another scheme in Authorization is not a token: no Origin, refused
    _other, connected = await open_real(table.campaign.pk, [(b"authorization", b"Bearer x")])
    assert not connected


@pytest.mark.asyncio
async def test_a_token_of_a_non_member_is_closed_4403(table):
    key = await token_for(table.outsider)
    bot, connected = await open_real(table.campaign.pk, [bearer(key)])
    assert connected
    assert (await bot.receive_output(timeout=5)) == {"type": "websocket.close", "code": 4403}


@pytest.mark.asyncio
async def test_a_session_page_still_opens_the_socket(table):
    cookie = await database_sync_to_async(session_cookie)(table.player)
    page, connected = await open_real(
        table.campaign.pk, [(b"cookie", cookie.encode()), (b"origin", b"http://localhost")]
    )
    assert connected
    assert (await next_of(page, "welcome"))["user"]["id"] == table.player.pk
    await page.disconnect()


# --- the language of a script's answers -------------------------------------------------------


@pytest.mark.asyncio
async def _ready(comm) -> None:
    await next_of(comm, "welcome")
    await comm.send_json_to({"type": "hello", "last_seq": 0})
    await next_of(comm, "replay")


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("accept", "expected"),
    [
        (b"en", EN_DENIED),
        (b"en-GB,en;q=0.9", EN_DENIED),
        (b"ru;q=0.5, en;q=0.8", EN_DENIED),
        (b"de, fr;q=0.9", RU_DENIED),  # none of ours: the saved language (ru)
        (b"en;q=0, ru;q=0.1", RU_DENIED),  # q=0 is "not this one"
    ],
)
async def test_a_token_socket_answers_in_its_accept_language(table, accept, expected):
    key = await token_for(table.player)
    bot, connected = await open_real(table.campaign.pk, [bearer(key), (b"accept-language", accept)])
    assert connected
    await _ready(bot)
    refused = await command(bot, "initiative.step", "s-1", {"direction": "next"})
    assert refused["status"] == 403 and refused["message"] == expected
    assert await sync_to_async(Roll.objects.count)() == 0
    await bot.disconnect()


@pytest.mark.asyncio
async def test_a_token_socket_error_frames_follow_accept_language(table):
    key = await token_for(table.player)
    bot, _connected = await open_real(table.campaign.pk, [bearer(key), (b"accept-language", b"en")])
    await _ready(bot)
    await bot.send_json_to({"type": "nonsense"})
    error = await next_of(bot, "error")
    assert error["code"] == "unknown_type" and error["message"].startswith("Unknown frame type")
    await bot.disconnect()


@pytest.mark.asyncio
async def test_a_token_socket_without_accept_language_uses_the_saved_language(table):
    table.player.language = "en"
    await sync_to_async(table.player.save)()
    key = await token_for(table.player)
    bot, _connected = await open_real(table.campaign.pk, [bearer(key)])
    await _ready(bot)
    refused = await command(bot, "initiative.step", "s-2", {"direction": "next"})
    assert refused["message"] == EN_DENIED
    await bot.disconnect()


@pytest.mark.asyncio
async def test_a_browser_socket_ignores_accept_language(table):
    """Russian is the product's default: a page's Accept-Language does not change it."""
    cookie = await database_sync_to_async(session_cookie)(table.player)
    page, connected = await open_real(
        table.campaign.pk,
        [
            (b"cookie", cookie.encode()),
            (b"origin", b"http://localhost"),
            (b"accept-language", b"en"),
        ],
    )
    assert connected
    await _ready(page)
    refused = await command(page, "initiative.step", "s-3", {"direction": "next"})
    assert refused["message"] == RU_DENIED
    await page.disconnect()


# --- the same rule on the HTTP API ------------------------------------------------------------


def _step(client: Client, table, **headers: str):
    return client.post(
        f"/api/campaigns/{table.campaign.pk}/initiative/step/",
        {"direction": "next"},
        content_type="application/json",
        headers=headers,
    )


def test_an_api_token_with_accept_language_gets_english(table):
    key = _token(table.player)
    response = _step(Client(), table, authorization=f"Token {key}", accept_language="en")
    assert response.status_code == 403
    assert response.json()["detail"] == EN_DENIED
    assert response["Content-Language"] == "en"
    # quality values: English preferred over Russian
    response = _step(
        Client(), table, authorization=f"Token {key}", accept_language="ru;q=0.3, en-US;q=0.7"
    )
    assert response.json()["detail"] == EN_DENIED
    # a language we do not speak: the saved one
    response = _step(Client(), table, authorization=f"Token {key}", accept_language="de")
    assert response.json()["detail"] == RU_DENIED


def test_a_bad_api_token_is_refused_in_the_asked_language(table):
    response = Client().get(
        f"/api/campaigns/{table.campaign.pk}/",
        headers={"authorization": "Token nope", "accept_language": "en"},
    )
    assert response.status_code == 401
    assert response.json()["detail"] == "Invalid token."


def test_a_browser_session_keeps_the_saved_language_whatever_it_accepts(table):
    client = Client()
    client.force_login(table.player)  # saved language: ru (the default)
    response = _step(client, table, accept_language="en")
    assert response.status_code == 403
    assert response.json()["detail"] == RU_DENIED


def test_accepted_language_parses_quality_values():
    assert accepted_language("en") == "en"
    assert accepted_language("EN-us") == "en"
    assert accepted_language("fr, en;q=0.2, ru;q=0.9") == "ru"
    assert accepted_language("*, en;q=0.1") == "en"
    assert accepted_language("de") is None
    assert accepted_language("") is None
    assert accepted_language(None) is None
    assert accepted_language("en;q=0") is None
