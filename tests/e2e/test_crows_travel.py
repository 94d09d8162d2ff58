"""The Crows travel day on the hex map, in two real browsers.

The referee puts a flat-topped hex map on the demo Crows campaign's table with the party on it,
and runs the day from the travel panel under the map: sets out, picks the fast pace, makes
Alice's guide take a shortcut. Alice's browser shows the day live (day, pace, her role) and
she makes the role check from her own panel. Her guide has Reason −5, so the shortcut almost
always fails (a new day is tried until it does): the party is lost. The referee moves a hex on
the hidden d6; his panel shows where the party truly is, while Alice's shows the position as
«неизвестно» and her browser never holds the true hex.

The demo campaign is shared with other browser tests, so names carry a unique tag and the
journey ends (and the map leaves the table) at the end.
"""

from __future__ import annotations

import uuid

from playwright.sync_api import expect

from tests.e2e.conftest import ARTIFACTS, login, register_secret
from tests.e2e.test_crows_map_attack import (
    DESKTOP,
    api,
    campaign_id,
    ok,
    open_map,
    place_tokens,
)


def test_referee_runs_a_travel_day_and_the_player_sees_it_live_but_never_the_true_hex(new_page):
    tag = uuid.uuid4().hex[:6]
    pc = new_page(viewport=DESKTOP)
    login(pc, "alice")
    cid = campaign_id(pc)
    guide_name = f"Ава {tag}"
    guide = ok(
        api(
            pc,
            "POST",
            f"/api/campaigns/{cid}/characters/",
            {
                "name": guide_name,
                "state": {"characteristics": {"agility": 0, "reason": -5, "strength": 0}},
            },
        ),
        201,
    )["id"]

    gm = new_page(viewport=DESKTOP)
    login(gm, "referee")
    hexmap = ok(
        api(
            gm,
            "POST",
            f"/api/campaigns/{cid}/maps/",
            {
                "name": f"Пустоши {tag}",
                "kind": "hex",
                "orientation": "flat",
                "width": 12,
                "height": 10,
                "fogged": False,
            },
        ),
        201,
    )["map"]["id"]
    base = f"/api/campaigns/{cid}/maps/{hexmap}/"
    ok(api(gm, "POST", base + "party/", {"shown": [5, 5], "true": [5, 5], "reveal": 1}))
    ok(api(gm, "POST", base + "activate/", {"active": True}))
    api(gm, "POST", base + "travel/end/", {})  # a journey left over by another run

    open_map((gm, pc), cid, hexmap)
    for page in (gm, pc):
        expect(page.locator("[data-travel-panel]")).to_be_visible()
    expect(pc.locator("[data-travel-controls]")).to_have_count(0)
    expect(pc.locator("[data-travel-state]")).to_contain_text("не в пути")

    # the referee sets out: the player's panel shows the day and the known hex, live
    gm.locator("[data-travel-step=begin]").click()
    expect(pc.locator("[data-travel-state] .travel-position")).to_have_attribute(
        "data-position", "5,5"
    )
    expect(pc.locator("[data-travel-state] .travel-day")).to_have_text("День 0")
    # issue 18 item 10: the referee's full copy of a public step is not marked «вслепую»
    set_out = gm.locator("#log li.entry-travel").last
    expect(set_out.locator(".vis")).to_have_text("всем (у игроков своя копия)")

    check = pc.locator(f"[data-travel-check='{guide_name}']")
    lost = pc.locator("[data-travel-state] .travel-lost")
    for day in range(1, 9):
        gm.locator("[data-travel-pace]").select_option("fast")
        gm.locator("[data-travel-step=day]").click()
        expect(pc.locator("[data-travel-state] .travel-day")).to_have_text(f"День {day}")
        expect(pc.locator("[data-travel-state] .travel-pace")).to_have_text("Быстрый")
        gm.locator(f"[data-role-for='{guide}']").select_option("shortcut")
        gm.locator("[data-travel-step=roles]").click()
        row = pc.locator(f"[data-travel-state] [data-role-name='{guide_name}']")
        expect(row).to_contain_text("Проводник")
        expect(row).to_contain_text("Короткий путь")
        check.click()  # the player's own role check
        expect(row.locator(".travel-outcome")).to_be_visible()
        if lost.count():
            break
    expect(lost).to_have_text("Группа заблудилась")
    expect(pc.locator("[data-travel-state] .travel-position")).to_have_text("неизвестно")
    expect(gm.locator("[data-travel-state] .travel-lost")).to_be_visible()

    # the referee walks a hex on the hidden d6: only his panel shows where the party is
    gm.locator("[data-travel-directions] [data-direction=n]").click()
    expect(gm.locator("[data-travel-secret]")).to_contain_text("На самом деле")
    truth = ok(api(gm, "GET", base + "travel/"))["travel"]
    assert truth["hex"] is not None and truth["lost"]
    expect(pc.locator("[data-travel-state]")).to_contain_text("Гексов сегодня: 1")
    expect(pc.locator("[data-travel-state] .travel-position")).to_have_text("неизвестно")
    assert pc.evaluate("() => VTTCrows.travel().hex") is None
    assert (
        pc.evaluate("() => 'drift' in VTTCrows.travel() || 'encounters' in VTTCrows.travel()")
        is False
    )
    assert pc.evaluate("() => (VTTMap.state().party || {}).true") is None
    expect(pc.locator("[data-travel-secret]")).to_have_count(0)
    assert "На самом деле" not in pc.content()
    ARTIFACTS.mkdir(exist_ok=True)
    pc.screenshot(path=str(ARTIFACTS / "crows-travel-player.png"), full_page=True)
    gm.screenshot(path=str(ARTIFACTS / "crows-travel-referee.png"), full_page=True)

    # the journey ends; the map leaves the table for the other browser tests
    gm.locator("[data-travel-step=end]").click()
    expect(pc.locator("[data-travel-state]")).to_contain_text("не в пути")
    ok(api(gm, "POST", base + "activate/", {"active": False}))


def test_combat_rounds_live_on_the_battle_map_with_a_hidden_npc_kept_hidden(new_page):
    """The combat strip: the referee starts combat and rolls side initiative; Alice runs her
    own turn (a Move maneuver) and the referee sees what she spent, live; a hidden NPC's turn
    reaches her only as "the enemies act", never its name."""
    tag = uuid.uuid4().hex[:6]
    secret = f"Тень-{tag}"
    register_secret(secret)
    pc = new_page(viewport=DESKTOP)
    login(pc, "alice")
    cid = campaign_id(pc)
    mine = ok(
        api(pc, "POST", f"/api/campaigns/{cid}/characters/", {"name": f"Лучница {tag}"}), 201
    )["id"]
    gm = new_page(viewport=DESKTOP)
    login(gm, "referee")
    characters = f"/api/campaigns/{cid}/characters/"
    goblin = ok(
        api(gm, "POST", characters, {"name": f"Гоблин {tag}", "kind": "npc"}),
        201,
    )["id"]
    shade = ok(
        api(gm, "POST", characters, {"name": secret, "kind": "npc", "hidden": True}),
        201,
    )["id"]
    battle = ok(
        api(
            gm,
            "POST",
            f"/api/campaigns/{cid}/maps/",
            {"name": f"Арена {tag}", "width": 8, "height": 6, "fogged": False},
        ),
        201,
    )["map"]["id"]
    base = f"/api/campaigns/{cid}/maps/{battle}/"
    tokens = place_tokens(
        gm,
        base,
        (
            ("Лучница", 1, mine, False),
            ("Гоблин", 5, goblin, False),
            (secret, 7, shade, True),
        ),
    )
    ok(api(gm, "POST", base + "activate/", {"active": True}))
    api(gm, "POST", base + "combat/end/", {})  # a combat left over by another run

    open_map((gm, pc), cid, battle)
    for page in (gm, pc):
        expect(page.locator("[data-combat-strip]")).to_be_visible()
    expect(pc.locator("[data-combat-controls]")).to_have_count(0)

    gm.locator("[data-combat-step=start]").click()
    expect(pc.locator("[data-combat-state] .combat-round")).to_have_text("Раунд ещё не начался")
    expect(pc.locator("[data-combat-state] [data-combatant]")).to_have_count(2)
    expect(gm.locator("[data-combat-state] [data-combatant]")).to_have_count(3)
    # side initiative: new rounds until the PCs act first (1d10, 6+)
    gm.locator("[data-combat-roller]").select_option(label="Алиса")
    start = pc.locator(f"[data-combat-turn-start='t{tokens['Лучница']}']")
    for n in range(1, 16):
        gm.locator("[data-combat-step=round]").click()
        expect(pc.locator("[data-combat-state] .combat-round")).to_have_attribute(
            "data-round", str(n)
        )
        if pc.evaluate("() => VTTCrows.combat().first") == "pcs":
            break
    expect(start).to_be_visible()
    start.click()
    expect(gm.locator("[data-combat-turn] .combat-current")).to_contain_text("Лучница")
    pc.locator("[data-combat-spend=move]").click()
    expect(gm.locator("[data-combat-turn] .combat-current")).to_contain_text(
        "Потрачено: манёвров 1, действий 0"
    )
    pc.locator(f"[data-combat-reaction='t{tokens['Лучница']}']").click()
    expect(
        gm.locator(f"[data-combat-state] [data-combatant='t{tokens['Лучница']}']")
    ).to_have_attribute("data-reaction-used", "1")
    pc.locator("[data-combat-end-turn]").click()
    expect(gm.locator(f"[data-combatant='t{tokens['Лучница']}']")).to_contain_text("уже ходил")
    # the hidden creature's turn: Alice sees only that the enemies act
    gm.locator(f"[data-combat-turn-start='t{tokens[secret]}']").click()
    expect(pc.locator("[data-combat-turn] .combat-current")).to_have_text("Ходят враги")
    assert secret not in pc.content()
    assert secret not in pc.evaluate("() => JSON.stringify(VTTCrows.combat())")
    gm.locator("[data-combat-step=end]").click()
    expect(pc.locator("[data-combat-state]")).to_contain_text("Боя нет")
    ok(api(gm, "POST", base + "activate/", {"active": False}))
