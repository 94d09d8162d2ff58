"""Crows combat rounds on the battle map (vtt/rulesets/crows/battle.py): side initiative (1d10, 6+
the PCs first), surprise, the turn's maneuvers and action, reactions, next turn and round,
through the API for every role; a hidden NPC never reaches a player (API answers and the event
log).
"""

from __future__ import annotations

import json

import pytest

from systems import get_ruleset
from systems.core.dice import ScriptedDice
from vtt.campaigns import services as campaign_services
from vtt.campaigns.models import Membership, Role
from vtt.characters import services as character_services
from vtt.maps import services
from vtt.rulesets.crows import battle
from vtt.table.models import DungeonClock, TableEvent

RS = get_ruleset("crows")
HIDDEN = "Тайный-Убийца-9e1f"


def sheet(name: str, **kw) -> dict:
    state = RS.default_state()
    state.update(name=name, **kw)
    return RS.validate_state(state)


class Fight:
    def __init__(self, table, api_for):
        ref = table.referee
        self.table = table
        self.campaign = campaign_services.campaign_create(user=ref, name="Бой", ruleset="crows")
        for user, role in (
            (table.player, Role.PLAYER),
            (table.other_player, Role.PLAYER),
            (table.observer, Role.OBSERVER),
        ):
            Membership.objects.create(campaign=self.campaign, user=user, role=role)

        def character(name, owner=None, kind="pc", hidden=False):
            c = character_services.character_create(
                campaign=self.campaign,
                actor=ref,
                role="referee",
                name=name,
                kind=kind,
                state=sheet(name, **({"kind": "monster"} if kind == "npc" else {})),
                owner_id=owner.pk if owner else None,
                hidden=hidden,
            )
            return c

        self.ava = character("Ава", table.player)
        self.bran = character("Бран", table.other_player)
        self.goblin = character("Гоблин", kind="npc")
        self.assassin = character(HIDDEN, kind="npc", hidden=True)
        self.map = services.map_create(
            campaign=self.campaign, actor=ref, name="Склеп", width=12, height=8, fogged=False
        )
        services.map_activate(campaign=self.campaign, actor=ref, map_id=self.map.pk)

        def token(name, col, row, character, **kw):
            return services.token_create(
                map=self.map,
                actor=ref,
                name=name,
                col=col,
                row=row,
                character_id=character.pk,
                **kw,
            )

        self.t_ava = token("Ава", 1, 1, self.ava)
        self.t_bran = token("Бран", 2, 1, self.bran)
        self.t_goblin = token("Гоблин", 6, 1, self.goblin)
        self.t_hidden = token(HIDDEN, 10, 6, self.assassin, hidden=True)
        self.gm = api_for(ref)
        self.alice = api_for(table.player)
        self.boris = api_for(table.other_player)
        self.watcher = api_for(table.observer)
        self.outsider = api_for(table.outsider)

    def url(self, step: str = "") -> str:
        base = f"/api/campaigns/{self.campaign.pk}/maps/{self.map.pk}/combat/"
        return base + (f"{step}/" if step else "")

    def post(self, who, step: str, body: dict | None = None, status: int = 200) -> dict:
        response = who.post(self.url(step), body or {}, format="json")
        assert response.status_code == status, (step, response.status_code, response.content)
        return response.json()

    def round(self, face: int) -> dict:
        """The initiative roll with a known face (the service, as the API would call it)."""
        return battle.combat_step(
            map=self.map,
            actor=self.table.referee,
            membership=Membership.objects.get(campaign=self.campaign, user=self.table.referee),
            step="round",
            params={"roller_id": self.table.player.pk},
            dice=ScriptedDice([face]),
        )

    def cid(self, token) -> str:
        return f"t{token.pk}"


@pytest.fixture
def fight(table, api_for) -> Fight:
    return Fight(table, api_for)


def player_payloads(fight: Fight, who) -> str:
    events = who.get(f"/api/campaigns/{fight.campaign.pk}/events/?since=0&limit=500").json()
    return json.dumps(events, ensure_ascii=False)


def test_roles_and_refusals_change_nothing(fight):
    f = fight
    assert f.outsider.get(f.url()).status_code == 404
    assert f.outsider.post(f.url("start"), {}, format="json").status_code == 404
    assert f.watcher.get(f.url()).json()["combat"] is None
    assert f.watcher.post(f.url("start"), {}, format="json").status_code == 403
    assert f.alice.post(f.url("start"), {}, format="json").status_code == 403
    assert f.alice.post(f.url("round"), {}, format="json").status_code == 403
    assert f.gm.post(f.url("fly"), {}, format="json").status_code == 404
    assert f.post(f.gm, "round", status=400)["code"] == "combat_refused"  # no combat yet
    assert f.post(f.gm, "end", status=409)["code"] == "no_combat"
    assert f.post(f.gm, "start", {"tokens": [999999]}, status=400)["code"] == "no_token"
    f.post(f.gm, "start", {"tokens": [f.t_ava.pk], "sides": {str(f.t_ava.pk): "x"}}, status=400)
    assert TableEvent.objects.filter(campaign=f.campaign, kind="combat").count() == 0

    f.post(f.gm, "start", {"surprised": [f.t_goblin.pk]})
    assert f.post(f.gm, "start", status=409)["code"] == "combat_on"
    before = TableEvent.objects.count()
    state = DungeonClock.objects.get(campaign=f.campaign).ruleset_state
    # a turn before any round; bad cost; a watcher's and an outsider's writes
    assert f.alice.post(f.url("turn"), {"combatant": f.cid(f.t_ava)}, format="json").status_code
    assert f.post(f.alice, "turn", {"combatant": f.cid(f.t_ava)}, status=400)
    assert f.watcher.post(f.url("turn"), {"combatant": f.cid(f.t_ava)}).status_code == 403
    assert f.outsider.post(f.url("turn"), {"combatant": f.cid(f.t_ava)}).status_code == 404
    f.post(f.gm, "spend", {"combatant": f.cid(f.t_ava), "cost": "fly"}, status=400)
    assert TableEvent.objects.count() == before
    assert DungeonClock.objects.get(campaign=f.campaign).ruleset_state == state


def test_a_round_side_by_side_with_turns_and_reactions(fight):
    f = fight
    started = f.post(f.gm, "start", {"surprised": [f.t_goblin.pk]})["combat"]
    ids = [c["id"] for c in started["combatants"]]
    assert ids == [f.cid(t) for t in (f.t_ava, f.t_bran, f.t_goblin, f.t_hidden)]
    sides = {c["id"]: c["side"] for c in started["combatants"]}
    assert sides[f.cid(f.t_ava)] == "pcs" and sides[f.cid(f.t_goblin)] == "enemies"

    f.table.player.public_name = "Алиса"  # named by the display name, not the login
    f.table.player.save(update_fields=["public_name"])
    out = f.round(7)  # 6+: the PCs and their allies act first (L707)
    assert out["combat"]["first"] == "pcs" and out["combat"]["waiting"] == "pcs"
    assert out["step"]["roller"] == "Алиса"

    # the goblin is surprised: no turn in round 1 (L703), not even for the referee
    f.post(f.gm, "turn", {"combatant": f.cid(f.t_goblin)}, status=400)
    # boris may not run alice's character; alice runs her own
    assert (
        f.boris.post(f.url("turn"), {"combatant": f.cid(f.t_ava)}, format="json").status_code == 403
    )
    mine = f.post(f.alice, "turn", {"combatant": f.cid(f.t_ava)})["combat"]
    assert mine["turn"]["combatant"] == f.cid(f.t_ava)
    assert mine["turn"]["left"] == {"maneuvers": 2, "actions": 1}
    # a turn is never interrupted by another's (L711)
    f.post(f.boris, "turn", {"combatant": f.cid(f.t_bran)}, status=400)
    # Boris may spend his own reaction on alice's turn, once a round (L835)
    react = f.post(f.boris, "spend", {"combatant": f.cid(f.t_bran), "cost": "reaction"})
    bran = next(c for c in react["combat"]["combatants"] if c["id"] == f.cid(f.t_bran))
    assert bran["reaction_used"] is True
    f.post(f.boris, "spend", {"combatant": f.cid(f.t_bran), "cost": "reaction"}, status=400)
    # a maneuver (Move, her speed) and the action; a third spend is refused (L711)
    moved = f.post(f.alice, "spend", {"cost": "maneuver", "move": True, "squares": 3})["combat"]
    assert moved["turn"]["maneuvers"] == 1 and moved["turn"]["moved"] == 3
    assert moved["turn"]["left"] == {"maneuvers": 1, "actions": 1}
    acted = f.post(f.alice, "spend", {"cost": "action"})["combat"]
    assert acted["turn"]["left"] == {"maneuvers": 0, "actions": 0}
    f.post(f.alice, "spend", {"cost": "maneuver"}, status=400)
    # only the turn's owner (or the referee) ends it
    assert f.boris.post(f.url("end_turn"), {}, format="json").status_code == 403
    ended = f.post(f.alice, "end_turn")["combat"]
    assert ended["turn"] is None
    f.post(f.alice, "turn", {"combatant": f.cid(f.t_ava)}, status=400)  # acted this round
    f.post(f.boris, "turn", {"combatant": f.cid(f.t_bran)})
    f.post(f.boris, "end_turn")
    f.post(f.gm, "turn", {"combatant": f.cid(f.t_hidden)})
    last = f.post(f.gm, "end_turn")
    assert last["step"]["round_over"] is True

    # round 2: a 3 lets the enemies go first; surprise is over; reactions are back
    out = f.round(3)
    assert out["combat"]["first"] == "enemies"
    assert all(not c["reaction_used"] for c in out["combat"]["combatants"])
    f.post(f.alice, "turn", {"combatant": f.cid(f.t_ava)}, status=400)  # the other side acts
    f.post(f.gm, "turn", {"combatant": f.cid(f.t_goblin)})
    f.post(f.gm, "spend", {"cost": "action"})
    f.post(f.gm, "end_turn")
    assert f.post(f.gm, "end")["combat"] is None
    assert f.alice.get(f.url()).json()["combat"] is None


def test_hidden_npc_never_reaches_players(fight):
    f = fight
    f.post(f.gm, "start", {"surprised": [f.t_goblin.pk, f.t_hidden.pk]})
    f.round(2)  # the enemies first
    rounds = TableEvent.objects.filter(campaign=f.campaign, kind="combat").order_by("seq")
    ref_round, players_round = [e.payload for e in rounds][-2:]
    assert sorted(ref_round["surprised_no_turn"]) == sorted([f.cid(f.t_goblin), f.cid(f.t_hidden)])
    assert players_round["surprised_no_turn"] == [f.cid(f.t_goblin)]
    f.round(4)  # round 2: surprise is over (L703)
    ref_view = f.gm.get(f.url()).json()["combat"]
    assert HIDDEN in json.dumps(ref_view, ensure_ascii=False)
    f.post(f.gm, "turn", {"combatant": f.cid(f.t_hidden)})
    f.post(f.gm, "spend", {"cost": "action"})
    for who in (f.alice, f.watcher):
        view = who.get(f.url()).json()
        assert view["audience"] == "players"
        assert f.cid(f.t_hidden) not in [c["id"] for c in view["combat"]["combatants"]]
        assert view["combat"]["turn"] == {"hidden": True, "round": 2, "side": "enemies"}
        assert HIDDEN not in json.dumps(view, ensure_ascii=False)
        assert f.cid(f.t_hidden) not in json.dumps(view)
    # a player cannot act as, nor probe, the hidden creature
    f.post(f.alice, "spend", {"combatant": f.cid(f.t_hidden), "cost": "reaction"}, status=400)
    f.post(f.gm, "end_turn")
    for who in (f.alice, f.boris, f.watcher):
        log = player_payloads(f, who)
        for ev in json.loads(log)["events"]:
            dumped = json.dumps(ev, ensure_ascii=False)
            assert HIDDEN not in dumped and f.cid(f.t_hidden) not in dumped, ev
    # the referee's copies carry it, as blind events
    referee_log = player_payloads(f, f.gm)
    assert HIDDEN in referee_log
    blind = TableEvent.objects.filter(campaign=f.campaign, kind="combat", visibility="blind")
    assert (
        blind.count()
        == TableEvent.objects.filter(
            campaign=f.campaign, kind="combat", visibility="players"
        ).count()
    )


def test_combat_needs_a_square_crows_map(fight):
    f = fight
    hexmap = services.map_create(
        campaign=f.campaign, actor=f.table.referee, name="Пустоши", kind="hex", width=5, height=5
    )
    url = f"/api/campaigns/{f.campaign.pk}/maps/{hexmap.pk}/combat/start/"
    response = f.gm.post(url, {}, format="json")
    assert response.status_code == 400 and response.json()["code"] == "not_battle_map"
