"""Attacks on the Crows battle map (vtt/rulesets/crows/combat.py): the server reads cover, light,
height and flanking from the map, feeds them to the attack as its sources and publishes them; a
miss in melee offers the counterattack to the target's player alone (and the referee).

Exact dice go through the service (``ScriptedDice``); the HTTP tests check roles, refusals and
what each viewer receives.
"""

from __future__ import annotations

import pytest

from systems import get_ruleset
from systems.core.dice import ScriptedDice
from systems.crows.inventory import place
from systems.crows.items import make_item
from vtt.campaigns import services as campaign_services
from vtt.campaigns.models import Membership, Role
from vtt.characters import services as character_services
from vtt.characters.models import PendingMove
from vtt.maps import services
from vtt.rulesets.crows import combat
from vtt.table.models import TableEvent

RS = get_ruleset("crows")
BOW = make_item(
    "bow",
    "Лук",
    kind="bow",
    damage={"type": "ranged", "range": 10, "tier2": "1d6", "tier3": "1d6+2", "ammo": "arrow"},
)
ARROWS = make_item("arrows", "Стрелы", kind="arrow", stack=20)
SWORD = make_item(
    "sword", "Меч", kind="sword", damage={"type": "melee", "tier2": "3", "tier3": "5"}
)
TORCH = make_item("torch", "Факел", light={"bright": 2, "dim": 4, "lit": True})


def sheet(name: str, *items: tuple[dict, str], agility: int = 0, strength: int = 0, **kw) -> dict:
    state = RS.default_state()
    state.update(name=name, **kw)
    state["characteristics"] = {"agility": agility, "reason": 0, "strength": strength}
    for card, where in items:
        state["inventory"] = place(state["inventory"], card, where)
    return RS.validate_state(state)


class Crows:
    def __init__(self, table):
        ref = table.referee
        self.table = table
        self.campaign = campaign_services.campaign_create(user=ref, name="Вороны", ruleset="crows")
        for user, role in (
            (table.player, Role.PLAYER),
            (table.other_player, Role.PLAYER),
            (table.observer, Role.OBSERVER),
        ):
            Membership.objects.create(campaign=self.campaign, user=user, role=role)

        def pc(owner, state):
            return character_services.character_create(
                campaign=self.campaign,
                actor=ref,
                role="referee",
                name=state["name"],
                state=state,
                owner_id=owner.pk,
            )

        self.archer = pc(
            table.player,
            sheet("Ава", (BOW, "hands:1"), (ARROWS, "backpack:1"), (SWORD, "hands:2"), agility=2),
        )
        self.fighter = pc(table.other_player, sheet("Бран", (SWORD, "hands:1"), strength=1))
        self.goblin = character_services.character_create(
            campaign=self.campaign,
            actor=ref,
            role="referee",
            name="Гоблин",
            kind="npc",
            state=sheet("Гоблин", (SWORD, "hands:1"), kind="monster"),
        )
        m = services.map_create(
            campaign=self.campaign, actor=ref, name="Склеп", width=12, height=8, fogged=False
        )
        services.map_activate(campaign=self.campaign, actor=ref, map_id=m.pk)
        self.map = m

        def token(name, col, row, character=None, **kw):
            return services.token_create(
                map=m,
                actor=ref,
                name=name,
                col=col,
                row=row,
                character_id=character.pk if character else None,
                **kw,
            )

        self.t_archer = token("Ава", 1, 1, self.archer)
        self.t_fighter = token("Бран", 6, 3, self.fighter)
        self.t_goblin = token("Гоблин", 6, 1, self.goblin)
        self.t_post = token("Столб", 0, 7)
        self.t_hidden = token("Засада", 10, 6, hidden=True)

    def url(self, suffix: str = "attack/") -> str:
        return f"/api/campaigns/{self.campaign.pk}/maps/{self.map.pk}/{suffix}"


@pytest.fixture
def crows(table) -> Crows:
    return Crows(table)


def test_cover_and_dim_light_give_double_disadvantage_and_are_published(crows, api_for):
    ref = crows.table.referee
    services.map_update(map=crows.map, actor=ref, ambient_light="dark")
    services.features_paint(map=crows.map, actor=ref, cells=[[5, 1]], cover="low")
    services.features_paint(map=crows.map, actor=ref, cells=[[6, 1]], light="dim")
    outcome, follow, context = combat.map_attack(
        map=crows.map,
        actor=crows.table.player,
        role="player",
        attacker_token=crows.t_archer.pk,
        target_token=crows.t_goblin.pk,
        weapon_id="bow",
        dice=ScriptedDice([9, 8, 4]),  # 17 + Agi 2 = 19 → T3, double disadvantage → T2; 1d6 = 4
    )
    assert follow is None
    assert [s["key"] for s in context["sources"]] == ["cover", "dim_light"]
    assert context["cover"] == "half" and context["light"] == "dim" and context["distance"] == 5
    assert outcome.flags["net"] == -2 and outcome.flags["tier"] == 2 and outcome.flags["hit"]
    assert {"cover", "dim_light"} <= set(outcome.details["sources"])
    crows.goblin.refresh_from_db()
    goblin_before = RS.validate_state(sheet("Гоблин", (SWORD, "hands:1"), kind="monster"))
    assert crows.goblin.state != goblin_before  # 4 damage went through the damage pipeline
    event = TableEvent.objects.filter(kind="move").last()
    assert event.visibility == "everyone"
    assert [s["key"] for s in event.payload["context"]["sources"]] == ["cover", "dim_light"]
    assert event.payload["context"]["sources"][0]["ru"] == "Укрытие"
    assert event.payload["outcome"]["flags"]["net"] == -2
    assert "details" not in event.payload["outcome"]
    # the arrow is spent from the archer's sheet (L807)
    crows.archer.refresh_from_db()
    assert outcome.details["ammo_used"] == "arrows" and crows.archer.version == 2


def test_a_torch_lights_the_target_and_high_ground_cancels_cover(crows):
    ref = crows.table.referee
    services.map_update(map=crows.map, actor=ref, ambient_light="dark")
    services.features_paint(map=crows.map, actor=ref, cells=[[5, 1]], cover="low")
    services.features_paint(map=crows.map, actor=ref, cells=[[1, 1]], height=1)
    state = dict(crows.fighter.state)
    state["inventory"] = place(state["inventory"], TORCH, "hands:2")
    character_services.character_update(
        character=crows.fighter, actor=ref, state=state, version=crows.fighter.version
    )
    # Бран's torch (2/4) at (6,3) lights the goblin at (6,1) brightly: no light source
    outcome, _follow, context = combat.map_attack(
        map=crows.map,
        actor=crows.table.player,
        role="player",
        attacker_token=crows.t_archer.pk,
        target_token=crows.t_goblin.pk,
        weapon_id="bow",
        dice=ScriptedDice([5, 5, 3]),  # 10 + 2 = 12 → T2; 1d6 = 3
    )
    assert context["light"] == "bright" and context["high_ground"]
    assert [s["key"] for s in context["sources"]] == ["high_ground", "cover"]
    assert outcome.flags["net"] == 0 and outcome.flags["tier"] == 2


def test_flanking_in_melee_comes_from_an_ally_opposite(crows):
    ref = crows.table.referee
    services.token_move(
        map=crows.map, actor=ref, role="referee", token_id=crows.t_archer.pk, col=5, row=1
    )
    services.token_move(
        map=crows.map, actor=ref, role="referee", token_id=crows.t_fighter.pk, col=7, row=1
    )
    outcome, _follow, context = combat.map_attack(
        map=crows.map,
        actor=crows.table.player,
        role="player",
        attacker_token=crows.t_archer.pk,
        target_token=crows.t_goblin.pk,
        weapon_id="sword",
        dice=ScriptedDice([6, 6]),  # 12 + Str 0 + advantage 2 = 14 → T2, sword deals 3
    )
    assert context["flanking"] and context["attack"] == "melee"
    assert [s["key"] for s in context["sources"]] == ["flanking"]
    assert outcome.flags["net"] == 1 and outcome.total == 14


def test_no_line_of_effect_and_bad_requests_change_nothing(crows, api_for):
    ref = crows.table.referee
    wall = [[4, r] for r in range(8)]
    services.features_paint(map=crows.map, actor=ref, cells=wall, cover="wall")
    player = api_for(crows.table.player)
    before = TableEvent.objects.count()
    blocked = player.post(
        crows.url(),
        {"attacker": crows.t_archer.pk, "target": crows.t_goblin.pk, "weapon_id": "bow"},
        format="json",
    )
    assert blocked.status_code == 400 and blocked.json()["code"] == "no_line_of_effect"
    cases = [
        ({"attacker": crows.t_archer.pk, "target": crows.t_archer.pk}, 400, "same_token"),
        ({"attacker": crows.t_archer.pk, "target": crows.t_hidden.pk}, 400, "no_token"),
        ({"attacker": crows.t_archer.pk, "target": 999999}, 400, "no_token"),
        (
            {"attacker": crows.t_archer.pk, "target": crows.t_post.pk, "weapon_id": "nope"},
            400,
            None,
        ),
        ({"attacker": crows.t_post.pk, "target": crows.t_goblin.pk}, 403, "not_owner"),
        ({"attacker": crows.t_fighter.pk, "target": crows.t_goblin.pk}, 403, "not_owner"),
        ({"target": crows.t_goblin.pk}, 400, None),
    ]
    for body, status, code in cases:
        response = player.post(crows.url(), body, format="json")
        assert response.status_code == status, (body, response.content)
        if code:
            assert response.json()["code"] == code
    # the referee attacks with a token without a sheet: refused, the sheet makes the attack
    gm = api_for(ref).post(
        crows.url(), {"attacker": crows.t_post.pk, "target": crows.t_goblin.pk}, format="json"
    )
    assert gm.status_code == 400 and gm.json()["code"] == "no_sheet"
    body = {"attacker": crows.t_archer.pk, "target": crows.t_goblin.pk, "weapon_id": "bow"}
    assert api_for(crows.table.observer).post(crows.url(), body, format="json").status_code == 403
    assert api_for(crows.table.outsider).post(crows.url(), body, format="json").status_code == 404
    assert api_for(None).post(crows.url(), body, format="json").status_code in (401, 403)
    assert TableEvent.objects.count() == before


@pytest.mark.parametrize(
    "extra",
    [
        {"target": "ARCHER"},  # the attacker itself
        {"target": "HIDDEN"},  # a token the player cannot see
        {"target": 999999},
        {"target": "GOBLIN", "weapon_id": "nope"},
        {"target": "GOBLIN", "attack": "bite"},
        {},  # no target at all
        {"target": "GOBLIN", "weapon_id": ["bow"]},
    ],
)
def test_another_players_token_is_a_403_whatever_the_rest_of_the_body(crows, api_for, extra):
    """Whose token attacks is checked before the rest of the request: Бран's player naming
    Ава's token gets the same 403 whether the target, the weapon or the attack is wrong."""
    tokens = {"ARCHER": crows.t_archer.pk, "HIDDEN": crows.t_hidden.pk, "GOBLIN": crows.t_goblin.pk}
    body = {"attacker": crows.t_archer.pk}
    body |= {k: tokens.get(v, v) if isinstance(v, str) else v for k, v in extra.items()}
    before = TableEvent.objects.count()
    response = api_for(crows.table.other_player).post(crows.url(), body, format="json")
    assert response.status_code == 403, response.content
    assert response.json()["code"] == "not_owner"
    assert response.json()["detail"] == "Атаковать можно только фишками своих персонажей."
    assert TableEvent.objects.count() == before
    # Ава's own player is refused on the content (a 400), as before
    assert api_for(crows.table.player).post(crows.url(), body, format="json").status_code == 400


def test_a_token_a_player_cannot_see_does_not_attack_for_them(crows, api_for):
    """Ава's token under the fog: Бран's player cannot see it, so for him it does not exist
    (404, as a hidden token or an id that names nothing); Ава's player knows where she
    stands, but she attacks from no fogged square (400)."""
    ref = crows.table.referee
    services.fog_change(map=crows.map, actor=ref, reveal=False, rect=[0, 0, 3, 7])
    other = api_for(crows.table.other_player)
    for attacker in (crows.t_archer.pk, crows.t_hidden.pk, 999999):
        body = {"attacker": attacker, "target": crows.t_goblin.pk}
        refused = other.post(crows.url(), body, format="json")
        assert refused.status_code == 404, (attacker, refused.content)
        assert refused.json()["code"] == "no_token"
    body = {"attacker": crows.t_archer.pk, "target": crows.t_goblin.pk}
    own = api_for(crows.table.player).post(crows.url(), body, format="json")
    assert own.status_code == 400 and own.json()["code"] == "no_token"
    assert not TableEvent.objects.filter(kind="move").exists()


def test_players_see_the_sources_but_never_the_monsters_sheet(crows, api_for):
    body = {"attacker": crows.t_archer.pk, "target": crows.t_goblin.pk, "weapon_id": "bow"}
    response = api_for(crows.table.player).post(crows.url(), body, format="json")
    assert response.status_code == 201, response.content
    data = response.json()
    assert data["context"]["target_name"] == "Гоблин" and "sources" in data["context"]
    assert "target" not in data["outcome"]["details"]
    assert "pending" not in data["outcome"]["details"]
    for entry in data["outcome"]["details"].get("targets", []):
        assert "state" not in entry


def test_features_are_the_referees_and_players_see_them_only_where_revealed(crows, api_for):
    url = crows.url("features/")
    player, gm = api_for(crows.table.player), api_for(crows.table.referee)
    assert player.post(url, {"cells": [[1, 1]], "cover": "wall"}, format="json").status_code == 403
    bad = gm.post(url, {"cells": [[1, 1]], "cover": "moat"}, format="json")
    assert bad.status_code == 400
    assert gm.post(url, {"cells": [[1, 1]]}, format="json").status_code == 400
    assert gm.post(url, {"cells": [[99, 1]], "cover": "wall"}, format="json").status_code == 400
    done = gm.post(url, {"cells": [[2, 2], [3, 2]], "cover": "wall", "height": 2}, format="json")
    assert done.status_code == 200 and done.json()["changed"] == 2
    services.fog_change(map=crows.map, actor=crows.table.referee, reveal=False, rect=[3, 0, 11, 7])
    state = player.get(crows.url("")).json()
    assert state["features"] == {"2,2": {"cover": "wall", "height": 2}}
    assert gm.get(crows.url("")).json()["features"]["3,2"] == {"cover": "wall", "height": 2}
    cleared = gm.post(url, {"cells": [[2, 2]], "cover": "", "height": 0}, format="json")
    assert cleared.json()["changed"] == 1
    assert player.get(crows.url("")).json()["features"] == {}


def test_attacks_need_crows_and_a_square_map(table, api_for, crows):
    hexes = services.map_create(
        campaign=crows.campaign, actor=table.referee, name="Пустошь", kind="hex"
    )
    with pytest.raises(Exception) as refused:
        combat.map_attack(
            map=hexes,
            actor=table.referee,
            role="referee",
            attacker_token=crows.t_archer.pk,
            target_token=crows.t_goblin.pk,
        )
    assert getattr(refused.value, "code", "") == "not_square"
    dw = services.map_create(campaign=table.campaign, actor=table.referee, name="DW")
    with pytest.raises(Exception) as other:
        combat.map_attack(
            map=dw, actor=table.referee, role="referee", attacker_token=1, target_token=2
        )
    assert getattr(other.value, "code", "") == "not_crows"


# --- reactions go to the target's player ------------------------------------------------------


def _melee_miss(crows, target_token, dice=(2, 5)):
    """Ава swings her sword at an adjacent target and rolls 7 → T1: a miss (L787)."""
    ref = crows.table.referee
    services.token_move(
        map=crows.map, actor=ref, role="referee", token_id=crows.t_archer.pk, col=5, row=3
    )
    return combat.map_attack(
        map=crows.map,
        actor=crows.table.player,
        role="player",
        attacker_token=crows.t_archer.pk,
        target_token=target_token.pk,
        weapon_id="sword",
        dice=ScriptedDice(list(dice)),
    )


def test_a_counterattack_is_the_target_players_choice(crows, api_for):
    outcome, pending, _context = _melee_miss(crows, crows.t_fighter)
    assert outcome.flags["tier"] == 1 and outcome.flags["reaction_by"] == "Бран"
    assert pending is not None and pending.chooser == "target"
    assert pending.target_id == crows.fighter.pk
    event = TableEvent.objects.filter(kind="move").last()
    assert event.payload["outcome"]["chooser"] == "target"
    assert event.payload["chooser_id"] == crows.table.other_player.pk
    assert event.payload["chooser_character_id"] == crows.fighter.pk
    url = f"/api/characters/{crows.archer.pk}/pending/{pending.pk}/"
    answer = {"choices": ["counterattack"]}
    # the attacker's own player may not answer for Бран, nor may an observer
    mover = api_for(crows.table.player).post(url, answer, format="json")
    assert mover.status_code == 403 and mover.json()["code"] == "reaction_owner"
    assert api_for(crows.table.observer).post(url, answer, format="json").status_code == 403
    assert api_for(crows.table.outsider).post(url, answer, format="json").status_code == 404
    pending.refresh_from_db()
    assert pending.resolved_at is None
    # Бран sees it waiting on his own sheet, and answers there
    listed = api_for(crows.table.other_player).get(f"/api/characters/{crows.fighter.pk}/pending/")
    row = next(p for p in listed.json() if p["id"] == pending.pk)
    assert row["reaction"] and row["mine"] and row["character_id"] == crows.archer.pk
    mine = api_for(crows.table.player).get(f"/api/characters/{crows.fighter.pk}/pending/")
    assert not next(p for p in mine.json() if p["id"] == pending.pk)["mine"]
    stamina = crows.archer.state["stamina"]
    own = f"/api/characters/{crows.fighter.pk}/pending/{pending.pk}/"
    done = api_for(crows.table.other_player).post(own, answer, format="json")
    assert done.status_code == 200, done.content
    assert done.json()["outcome"]["flags"]["counterattack"] is True
    crows.archer.refresh_from_db()
    assert crows.archer.state["stamina"] == stamina - 3  # the sword's T2 line: 3 (L839)
    again = api_for(crows.table.other_player).post(own, answer, format="json")
    assert again.status_code == 409


def test_the_referee_may_answer_any_reaction_and_an_npcs_is_the_referees(crows, api_for):
    _outcome, pending, _context = _melee_miss(crows, crows.t_fighter)
    url = f"/api/characters/{crows.archer.pk}/pending/{pending.pk}/"
    declined = api_for(crows.table.referee).post(url, {"choices": ["decline"]}, format="json")
    assert (
        declined.status_code == 200
        and declined.json()["outcome"]["flags"]["counterattack"] is False
    )
    services.token_move(
        map=crows.map,
        actor=crows.table.referee,
        role="referee",
        token_id=crows.t_goblin.pk,
        col=6,
        row=4,
    )
    _outcome, npc_pending, _context = _melee_miss(crows, crows.t_goblin)
    assert npc_pending.chooser == "referee"
    url = f"/api/characters/{crows.archer.pk}/pending/{npc_pending.pk}/"
    for user in (crows.table.player, crows.table.other_player):
        assert api_for(user).post(
            url, {"choices": ["counterattack"]}, format="json"
        ).status_code in (
            403,
            409,
        )
    assert PendingMove.objects.get(pk=npc_pending.pk).resolved_at is None


def test_an_expertise_before_the_reaction_stays_the_attackers(crows, api_for):
    """Ава has a weapon expertise: after her miss she is offered it first (her choice alone),
    and only when she declines does Бран's counterattack wait for him."""
    state = dict(crows.archer.state)
    state["expertises"] = [{"key": "slashing", "uses": 1, "max": 1}]
    character_services.character_update(
        character=crows.archer, actor=crows.table.referee, state=state, version=1
    )
    _outcome, expertise, _context = _melee_miss(crows, crows.t_fighter)
    assert expertise.chooser == "player"
    url = f"/api/characters/{crows.archer.pk}/pending/{expertise.pk}/"
    refused = api_for(crows.table.other_player).post(url, {"choices": ["none"]}, format="json")
    assert refused.status_code == 403 and refused.json()["code"] == "player_chooses"
    done = api_for(crows.table.player).post(url, {"choices": ["none"]}, format="json")
    assert done.status_code == 200, done.content
    reaction = PendingMove.objects.get(pk=done.json()["pending_id"])
    assert reaction.chooser == "target" and reaction.target_id == crows.fighter.pk


def test_a_hidden_creatures_miss_still_asks_the_target_player_alone(crows, api_for):
    """A hidden NPC's move is the referee's business (blind), but the counterattack it opens
    reaches Бран's player as a whisper, without the creature's name; he answers it from his
    own sheet, which lists it."""
    ref = crows.table.referee
    lurker = character_services.character_create(
        campaign=crows.campaign,
        actor=ref,
        role="referee",
        name="Тень-в-углу",
        kind="npc",
        hidden=True,
        state=sheet("Тень-в-углу", (SWORD, "hands:1"), kind="monster"),
    )
    _outcome, pending = character_services.move_make(
        character=lurker,
        actor=ref,
        move="attack",
        params={"weapon_id": "sword", "distance": 1},
        target_id=crows.fighter.pk,
        dice=ScriptedDice([2, 5]),  # 7 → T1: a miss, Бран may counterattack
    )
    assert pending.chooser == "target"
    move = TableEvent.objects.filter(kind="move").last()
    assert move.visibility == "blind"
    whisper = TableEvent.objects.get(kind="move.reaction")
    assert whisper.visibility == "whisper" and whisper.target_id == crows.table.other_player.pk
    assert "Тень-в-углу" not in str(whisper.payload)
    boris = api_for(crows.table.other_player)
    seen = boris.get(f"/api/campaigns/{crows.campaign.pk}/events/?since=0&limit=500").json()
    kinds = {e["seq"]: e["kind"] for e in seen["events"]}
    assert whisper.seq in kinds and move.seq not in kinds
    others = api_for(crows.table.player).get(
        f"/api/campaigns/{crows.campaign.pk}/events/?since=0&limit=500"
    )
    assert whisper.seq not in {e["seq"] for e in others.json()["events"]}
    listed = boris.get(f"/api/characters/{crows.fighter.pk}/pending/").json()
    row = next(p for p in listed if p["id"] == pending.pk)
    assert row["mine"] and row["character_id"] is None and "Тень" not in str(row)
    url = f"/api/characters/{crows.fighter.pk}/pending/{pending.pk}/"
    done = boris.post(url, {"choices": ["counterattack"]}, format="json")
    assert done.status_code == 200, done.content
    assert "Тень-в-углу" not in done.content.decode()
    lurker.refresh_from_db()
    assert lurker.version == 2  # the counterattack's damage went through the pipeline
