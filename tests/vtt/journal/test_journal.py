"""The journal: who reads what, who writes what, the sanitised Markdown, the images."""

from __future__ import annotations

import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from PIL import Image

from vtt.campaigns.models import Membership
from vtt.journal import selectors, services
from vtt.journal.models import Entry, Sharing

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def media_root(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT


def png(size=(40, 30)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, (10, 200, 30)).save(out, "PNG")
    return out.getvalue()


def member(table, user) -> Membership:
    return Membership.objects.select_related("campaign").get(campaign=table.campaign, user=user)


def entry(table, title="Склеп", body="Тайна", **kw) -> Entry:
    return services.entry_create(member(table, table.referee), title=title, body=body, **kw)


def titles(table, user) -> set[str]:
    return {e.title for e in selectors.visible(member(table, user))}


def test_unshared_entry_is_the_referees_alone(table):
    entry(table)
    assert titles(table, table.referee) == {"Склеп"}
    for user in (table.player, table.other_player, table.observer):
        assert titles(table, user) == set()


def test_shared_with_everyone_and_with_chosen_players(table):
    entry(table, "Всем", sharing=Sharing.EVERYONE)
    entry(table, "Одному", sharing=Sharing.CHOSEN, readers=[table.player.pk])
    assert titles(table, table.player) == {"Всем", "Одному"}
    assert titles(table, table.other_player) == {"Всем"}
    assert titles(table, table.observer) == {"Всем"}


def test_chosen_readers_are_players_of_the_campaign(table):
    from vtt.core.errors import Invalid

    for bad in (table.outsider.pk, table.observer.pk, table.referee.pk):
        with pytest.raises(Invalid):
            entry(table, sharing=Sharing.CHOSEN, readers=[bad])


def test_player_notes_are_private_until_shared_with_the_referee(table):
    note = services.entry_create(member(table, table.player), title="Мои мысли", body="x")
    assert note.is_note
    assert titles(table, table.player) == {"Мои мысли"}
    assert titles(table, table.referee) == set()
    assert titles(table, table.other_player) == set()
    services.entry_update(member(table, table.player), note, shared_with_referee=True)
    assert titles(table, table.referee) == {"Мои мысли"}
    assert titles(table, table.other_player) == set()


def test_a_player_cannot_widen_a_notes_sharing(table):
    note = services.entry_create(member(table, table.player), title="Моё", sharing=Sharing.EVERYONE)
    assert note.sharing == Sharing.NOBODY
    assert titles(table, table.other_player) == set()


def test_script_never_survives_markdown(table):
    e = entry(
        table,
        body="<script>alert(1)</script>\n\n[x](javascript:alert(2)) <img src=x onerror=alert(3)>"
        "\n\n**жирный**",
    )
    html = selectors.body_html(e, member(table, table.referee))
    # Raw HTML is shown as text, never as markup; a javascript: link is never a link.
    assert "<script" not in html and "<img" not in html and "href" not in html
    assert "&lt;script&gt;" in html
    assert "<strong>жирный</strong>" in html


def test_links_between_entries_only_to_what_the_reader_sees(table):
    secret = entry(table, "Тайник")
    shown = entry(table, "Город", body="См. [[Тайник]] и [[Город]].", sharing=Sharing.EVERYONE)
    as_gm = selectors.body_html(shown, member(table, table.referee))
    as_pc = selectors.body_html(shown, member(table, table.player))
    assert selectors.entry_url(secret) in as_gm
    assert selectors.entry_url(secret) not in as_pc
    assert selectors.entry_url(shown) in as_pc


def test_observer_writes_nothing(table):
    from django.core.exceptions import PermissionDenied

    with pytest.raises(PermissionDenied):
        services.entry_create(member(table, table.observer), title="x")


def test_limits_are_checked(table):
    from vtt.core.errors import Invalid
    from vtt.journal.models import BODY_MAX, TITLE_MAX

    with pytest.raises(Invalid):
        entry(table, title="x" * (TITLE_MAX + 1))
    with pytest.raises(Invalid):
        entry(table, body="x" * (BODY_MAX + 1))
    with pytest.raises(Invalid):
        entry(table, title="  ")


def test_room_link_must_be_a_room_of_the_campaign(table):
    from vtt.core.errors import Invalid

    with pytest.raises(Invalid):
        entry(table, room_id=999_999)


# --- API -----------------------------------------------------------------------------------


def test_api_lists_only_visible_entries(table, api_for):
    entry(table, "Секрет", body="скрытый текст")
    entry(table, "Открыто", sharing=Sharing.EVERYONE)
    url = reverse("api-journal", args=[table.campaign.pk])
    gm = api_for(table.referee).get(url).json()
    pc = api_for(table.player).get(url)
    assert {e["title"] for e in gm} == {"Секрет", "Открыто"}
    assert pc.status_code == 200
    assert "Секрет" not in pc.content.decode() and "скрытый" not in pc.content.decode()
    assert "sharing" not in pc.json()[0]  # who else reads it is the editor's business
    assert api_for(table.outsider).get(url).status_code == 404
    assert api_for(None).get(url).status_code in (401, 403)


def test_api_create_update_delete(table, api_for):
    url = reverse("api-journal", args=[table.campaign.pk])
    gm = api_for(table.referee)
    r = gm.post(url, {"title": "Письмо", "body": "<script>x</script>*a*"}, format="json")
    assert r.status_code == 201, r.content
    assert "<script" not in r.json()["html"] and "<em>a</em>" in r.json()["html"]
    detail = reverse("api-journal-entry", args=[table.campaign.pk, r.json()["id"]])
    assert api_for(table.player).get(detail).status_code == 404
    assert api_for(table.player).patch(detail, {"title": "y"}, format="json").status_code == 404
    r = gm.patch(detail, {"sharing": "chosen", "readers": [table.player.pk]}, format="json")
    assert r.status_code == 200, r.content
    assert api_for(table.player).get(detail).json()["title"] == "Письмо"
    assert api_for(table.other_player).get(detail).status_code == 404
    assert api_for(table.player).patch(detail, {"title": "y"}, format="json").status_code == 403
    assert api_for(table.player).delete(detail).status_code == 403
    assert api_for(table.observer).post(url, {"title": "z"}, format="json").status_code == 403
    assert gm.delete(detail).status_code == 204
    assert not Entry.objects.exists()


def test_api_images_are_checked_and_served_only_to_readers(table, api_for, client_for):
    e = entry(table, "Карта сокровищ")
    url = reverse("api-journal-images", args=[table.campaign.pk, e.pk])
    gm = api_for(table.referee)
    bad = gm.post(url, {"image": SimpleUploadedFile("a.png", b"not an image")})
    assert bad.status_code == 400
    r = gm.post(url, {"image": SimpleUploadedFile("a.png", png()), "label": "клад"})
    assert r.status_code == 201, r.content
    image_url = r.json()["images"][0]["url"]
    assert client_for(table.referee).get(image_url).status_code == 200
    assert client_for(table.player).get(image_url).status_code == 404
    assert client_for(table.outsider).get(image_url).status_code == 404
    services.entry_update(member(table, table.referee), e, sharing=Sharing.EVERYONE)
    assert client_for(table.player).get(image_url).status_code == 200
    assert (
        api_for(table.player).post(url, {"image": SimpleUploadedFile("b.png", png())}).status_code
        == 403
    )


def test_pages(table, client_for):
    entry(table, "Секретная глава", body="тайное")
    entry(table, "Общая глава", body="**общее**", sharing=Sharing.EVERYONE)
    index = reverse("journal", args=[table.campaign.pk])
    page = client_for(table.player).get(index).content.decode()
    assert "Общая глава" in page and "Секретная глава" not in page
    assert client_for(table.outsider).get(index).status_code == 404
    r = client_for(table.player).post(index, {"title": "Заметка", "body": "моё"})
    assert r.status_code == 302
    note = Entry.objects.get(title="Заметка")
    assert note.is_note
    gm_page = client_for(table.referee).get(index).content.decode()
    assert "Заметка" not in gm_page
    r = client_for(table.referee).post(
        index, {"title": "Новая", "body": "x", "sharing": "everyone"}
    )
    assert r.status_code == 302
    assert "Новая" in client_for(table.other_player).get(index).content.decode()


# --- showing to the table --------------------------------------------------------------------


def test_show_reaches_only_the_addressees(table, api_for):
    from vtt.table.events import visible_events

    e = entry(table, "Записка", body="Встретимся в полночь", sharing=Sharing.CHOSEN,
              readers=[table.player.pk])  # fmt: skip
    url = reverse("api-journal-show", args=[table.campaign.pk, e.pk])
    assert api_for(table.player).post(url).status_code == 403
    assert api_for(table.outsider).post(url).status_code == 404
    r = api_for(table.referee).post(url)
    assert r.status_code == 201, r.content

    def handouts(user, role):
        events = visible_events(table.campaign.pk, user_id=user.pk, role=role)
        return [ev.payload["title"] for ev in events if ev.kind == "handout"]

    assert handouts(table.player, "player") == ["Записка"]
    assert handouts(table.other_player, "player") == []
    assert handouts(table.observer, "observer") == []
    assert "полночь" in r.json()["events"][0]["payload"]["html"]


def test_an_unshared_entry_is_not_shown(table, api_for):
    e = entry(table, "Тайна")
    url = reverse("api-journal-show", args=[table.campaign.pk, e.pk])
    assert api_for(table.referee).post(url).status_code == 409


def test_show_to_everyone_is_one_event(table, api_for):
    e = entry(table, "Объявление", sharing=Sharing.EVERYONE)
    r = api_for(table.referee).post(reverse("api-journal-show", args=[table.campaign.pk, e.pk]))
    assert [ev["visibility"] for ev in r.json()["events"]] == ["everyone"]
