"""The Crows turn on the battle map beyond the basic spends (vtt/rulesets/crows/battle.py,
combat.py, services.token_move): an attack from the map is the attacker's action and an answered
counterattack the target's reaction; a dragged token walks its Move (difficult ground costs
more); taunt, ready and trigger, extra action, grab and let go, joining mid-fight; the player the
referee names rolls the initiative. Every refusal is a clear 4xx that changes nothing, and a
hidden NPC never reaches a player.
"""

from __future__ import annotations

import json

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
from vtt.maps.models import Token
from vtt.rulesets.crows import battle, combat
from vtt.table.models import DungeonClock, TableEvent

RS = get_ruleset("crows")
HIDDEN = "Тайный-Душитель-4b7e"
READY_SECRET = "когда-жрец-откроет-дверь-81aa"
SWORD = make_item(
    "sword", "Меч", kind="sword", damage={"type": "melee", "tier2": "3", "tier3": "5"}
)


def sheet(name: str, **kw) -> dict:
    state = RS.default_state()
    state.update(name=name, **kw)
    state["characteristics"] = {"agility": 0, "reason": 0, "strength": 1}
    state["inventory"] = place(state["inventory"], SWORD, "hands:1")
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
            return character_services.character_create(
                campaign=self.campaign,
                actor=ref,
                role="referee",
                name=name,
                kind=kind,
                state=sheet(name, **({"kind": "monster"} if kind == "npc" else {})),
                owner_id=owner.pk if owner else None,
                hidden=hidden,
            )

        self.ava = character("Ава", table.player)
        self.bran = character("Бран", table.other_player)
        self.goblin = character("Гоблин", kind="npc")
        self.assassin = character(HIDDEN, kind="npc", hidden=True)
        self.map = services.map_create(
            campaign=self.campaign, actor=ref, name="Склеп", width=14, height=8, fogged=False
        )
        services.map_activate(campaign=self.campaign, actor=ref, map_id=self.map.pk)

        def token(name, col, row, character=None, **kw):
            return services.token_create(
                map=self.map,
                actor=ref,
                name=name,
                col=col,
                row=row,
                character_id=character.pk if character else None,
                **kw,
            )

        self.t_ava = token("Ава", 1, 1, self.ava)
        self.t_bran = token("Бран", 1, 3, self.bran)
        self.t_goblin = token("Гоблин", 8, 1, self.goblin)
        self.t_hidden = token(HIDDEN, 12, 6, self.assassin, hidden=True)
        self.t_wolf = token("Волк", 10, 4)
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

    def move(self, who, token, col, row, path=None, status=200) -> dict:
        body = {"col": col, "row": row}
        if path is not None:
            body["path"] = path
        response = who.post(
            f"/api/campaigns/{self.campaign.pk}/maps/{self.map.pk}/tokens/{token.pk}/move/",
            body,
            format="json",
        )
        assert response.status_code == status, (response.status_code, response.content)
        return response.json()

    def begin(self, first_face: int = 7, surprised: list | None = None) -> None:
        """Combat with Ава, Бран, the goblin and the hidden assassin (not the wolf); round 1."""
        tokens = [self.t_ava.pk, self.t_bran.pk, self.t_goblin.pk, self.t_hidden.pk]
        self.post(self.gm, "start", {"tokens": tokens, "surprised": surprised or []})
        battle.combat_step(
            map=self.map,
            actor=self.table.referee,
            membership=Membership.objects.get(campaign=self.campaign, user=self.table.referee),
            step="round",
            dice=ScriptedDice([first_face]),
        )

    def combat(self) -> dict:
        return DungeonClock.objects.get(campaign=self.campaign).ruleset_state["combat"]

    def entry(self, token) -> dict:
        return next(c for c in self.combat()["combatants"] if c["id"] == f"t{token.pk}")

    def attack(self, actor, attacker, target, faces):
        return combat.map_attack(
            map=self.map,
            actor=actor,
            role="referee" if actor == self.table.referee else "player",
            attacker_token=attacker.pk,
            target_token=target.pk,
            weapon_id="sword",
            dice=ScriptedDice(list(faces)),
        )


@pytest.fixture
def fight(table, api_for) -> Fight:
    return Fight(table, api_for)


def player_log(f: Fight, who) -> str:
    events = who.get(f"/api/campaigns/{f.campaign.pk}/events/?since=0&limit=500").json()
    return json.dumps(events, ensure_ascii=False)


def assert_no_leak(f: Fight) -> None:
    for who in (f.alice, f.boris, f.watcher):
        log = player_log(f, who)
        assert HIDDEN not in log and f"t{f.t_hidden.pk}" not in log
        assert READY_SECRET not in log
        view = json.dumps(who.get(f.url()).json(), ensure_ascii=False)
        assert HIDDEN not in view and READY_SECRET not in view


# --- 1. an attack is the action; a counterattack the reaction --------------------------------


def test_a_map_attack_spends_the_action_and_is_refused_without_one(fight, api_for):
    f = fight
    services.token_move(
        map=f.map, actor=f.table.referee, role="referee", token_id=f.t_ava.pk, col=7, row=1
    )
    f.begin()
    attack_url = f"/api/campaigns/{f.campaign.pk}/maps/{f.map.pk}/attack/"
    body = {"attacker": f.t_ava.pk, "target": f.t_goblin.pk, "weapon_id": "sword"}
    before, state = TableEvent.objects.count(), f.combat()
    refused = f.alice.post(attack_url, body, format="json")
    assert refused.status_code == 409 and refused.json()["code"] == "not_your_turn"
    assert "Ава" in refused.json()["detail"]
    assert TableEvent.objects.count() == before and f.combat() == state
    f.post(f.alice, "turn", {"combatant": f"t{f.t_ava.pk}"})
    outcome, _follow, _ctx = f.attack(f.table.player, f.t_ava, f.t_goblin, [6, 7])  # 13+1: T2
    assert outcome.flags["tier"] == 2
    turn = f.combat()["turn"]
    assert turn["actions"] == 1 and battle.cb.turn_budget(turn) == {"maneuvers": 1, "actions": 0}
    spent = TableEvent.objects.filter(kind="combat", visibility="players").last().payload
    assert spent["type"] == "attacked" and spent["combat"]["turn"]["left"]["actions"] == 0
    again = f.alice.post(attack_url, body, format="json")
    assert again.status_code == 409 and again.json()["code"] == "no_action_left"
    # an extra action (the referee's, L815) allows one more attack
    f.post(f.gm, "extra_action", {"combatant": f"t{f.t_ava.pk}"})
    # (scripted: a random attack can crit, which grants another action, or fell the goblin)
    f.attack(f.table.player, f.t_ava, f.t_goblin, [2, 5])  # 8: a miss, the action is spent
    last = f.alice.post(attack_url, body, format="json")
    assert last.status_code == 409 and last.json()["code"] == "no_action_left"
    # outside the combat nothing changes: the wolf is not a combatant
    assert f.entry(f.t_goblin)["reaction_used"] is False


def test_an_answered_counterattack_spends_the_reaction_once_a_round(fight, api_for):
    f = fight
    services.token_move(
        map=f.map, actor=f.table.referee, role="referee", token_id=f.t_ava.pk, col=2, row=3
    )
    f.begin()
    f.post(f.alice, "turn", {"combatant": f"t{f.t_ava.pk}"})
    _outcome, pending, _ctx = f.attack(f.table.player, f.t_ava, f.t_bran, [2, 5])  # 8: a miss
    assert pending is not None and pending.chooser == "target"
    url = f"/api/characters/{f.bran.pk}/pending/{pending.pk}/"
    done = f.boris.post(url, {"choices": ["counterattack"]}, format="json")
    assert done.status_code == 200, done.content
    assert f.entry(f.t_bran)["reaction_used"] is True
    last = TableEvent.objects.filter(kind="combat", visibility="players").last().payload
    assert last["type"] == "counterattacked" and last["subject"] == f"t{f.t_bran.pk}"
    # with the reaction spent, a miss offers nothing more (L835)
    f.post(f.gm, "extra_action", {"combatant": f"t{f.t_ava.pk}"})
    _outcome, none, _ctx = f.attack(f.table.player, f.t_ava, f.t_bran, [2, 5])
    assert none is None
    # a counterattack offered elsewhere (a sheet's attack) is refused once it is spent
    _outcome, other = character_services.move_make(
        character=f.ava,
        actor=f.table.player,
        move="attack",
        params={"weapon_id": "sword", "target_name": "Бран"},
        target_id=f.bran.pk,
        dice=ScriptedDice([2, 5]),
    )
    assert other is not None
    stamina = f.ava.__class__.objects.get(pk=f.ava.pk).state["stamina"]
    before = TableEvent.objects.count()
    url = f"/api/characters/{f.bran.pk}/pending/{other.pk}/"
    refused = f.boris.post(url, {"choices": ["counterattack"]}, format="json")
    assert refused.status_code == 409 and refused.json()["code"] == "reaction_spent"
    assert PendingMove.objects.get(pk=other.pk).resolved_at is None
    assert TableEvent.objects.count() == before
    assert f.ava.__class__.objects.get(pk=f.ava.pk).state["stamina"] == stamina
    # declining is still possible
    assert f.boris.post(url, {"choices": ["decline"]}, format="json").status_code == 200


# --- 2. a dragged token walks its Move ---------------------------------------------------------


def test_dragging_a_token_walks_the_move_with_difficult_ground(fight):
    f = fight
    services.features_paint(
        map=f.map, actor=f.table.referee, cells=[[3, 1], [4, 1]], ground="difficult"
    )
    f.begin()
    # not Ава's turn yet: a player's drag is refused, the token stays
    refused = f.move(f.alice, f.t_ava, 2, 1, status=409)
    assert refused["code"] == "not_your_turn"
    assert Token.objects.get(pk=f.t_ava.pk).col == 1
    f.post(f.alice, "turn", {"combatant": f"t{f.t_ava.pk}"})
    # a path that jumps squares is bad input
    assert f.move(f.alice, f.t_ava, 4, 1, path=[[3, 1], [4, 1]], status=400)["code"] == "bad_path"
    # 1 plain + 2 difficult squares (L855): 5 of her Move's 6
    f.move(f.alice, f.t_ava, 4, 1, path=[[2, 1], [3, 1], [4, 1]])
    turn = f.combat()["turn"]
    assert turn["maneuvers"] == 1 and turn["moved"] == 5 and turn["move_left"] == 1
    events = TableEvent.objects.filter(kind="combat", visibility="players")
    assert events.last().payload["type"] == "walked" and events.last().payload["squares"] == 5
    # the straight path is computed when none is sent: 1 left, then a second Move (6)
    f.move(f.alice, f.t_ava, 7, 2)  # 3 squares: 1 from the first Move, 2 from a new one
    turn = f.combat()["turn"]
    assert turn["maneuvers"] == 2 and turn["move_left"] == 4 and turn["moved"] == 8
    before, state = TableEvent.objects.count(), f.combat()
    far = f.move(f.alice, f.t_ava, 13, 2, status=409)  # 6 squares, 4 left and no maneuver
    assert far["code"] == "too_far" and "6" in far["detail"] and "4" in far["detail"]
    assert Token.objects.get(pk=f.t_ava.pk).col == 7
    assert TableEvent.objects.count() == before and f.combat() == state
    # the referee may override: the token goes, the turn is untouched
    f.move(f.gm, f.t_ava, 13, 2)
    assert Token.objects.get(pk=f.t_ava.pk).col == 13 and f.combat()["turn"] == state["turn"]
    # Бран (not his turn) may not move; a token outside the combat moves as before
    assert f.move(f.boris, f.t_bran, 1, 4, status=409)["code"] == "not_your_turn"
    f.move(f.gm, f.t_wolf, 9, 4)


def test_an_enemys_space_costs_one_more(fight):
    f = fight
    f.begin()
    # the referee places her before her turn: nothing is spent
    services.token_move(
        map=f.map, actor=f.table.referee, role="referee", token_id=f.t_ava.pk, col=6, row=1
    )
    f.post(f.alice, "turn", {"combatant": f"t{f.t_ava.pk}"})
    assert f.combat()["turn"]["moved"] == 0
    # through the goblin's square at (8, 1) to (9, 1)
    f.move(f.alice, f.t_ava, 9, 1, path=[[7, 1], [8, 1], [9, 1]])
    assert f.combat()["turn"]["moved"] == 4


# --- 3. taunt, ready and trigger, extra action, grab, join ------------------------------------


def test_taunt_ready_trigger_and_their_role_checks(fight):
    f = fight
    f.begin()
    ava, bran, goblin = (f"t{t.pk}" for t in (f.t_ava, f.t_bran, f.t_goblin))
    hidden = f"t{f.t_hidden.pk}"
    f.post(f.alice, "turn", {"combatant": ava})
    before = TableEvent.objects.count()
    # players may not taunt for another's character, nor at what they cannot see
    assert f.boris.post(f.url("taunt"), {"target": goblin}, format="json").status_code == 403
    assert f.watcher.post(f.url("taunt"), {"target": goblin}, format="json").status_code == 403
    assert f.outsider.post(f.url("taunt"), {"target": goblin}, format="json").status_code == 404
    missing = f.post(f.alice, "taunt", {"target": hidden}, status=400)
    assert missing["code"] == "no_combatant" and HIDDEN not in json.dumps(missing)
    assert f.post(f.alice, "taunt", {"target": ava}, status=400)
    assert TableEvent.objects.count() == before
    taunted = f.post(f.alice, "taunt", {"target": goblin})
    gob = next(c for c in taunted["combat"]["combatants"] if c["id"] == goblin)
    assert gob["taunted_by"] == ava and taunted["combat"]["turn"]["left"]["actions"] == 0
    assert f.post(f.alice, "taunt", {"target": goblin}, status=409)["code"] == "no_action_left"
    # readying needs the action too: refused, and a trigger is required
    assert f.post(f.alice, "ready", {"trigger": "x"}, status=409)["code"] == "no_action_left"
    f.post(f.alice, "end_turn")
    f.post(f.boris, "turn", {"combatant": bran})
    assert f.post(f.boris, "ready", {"what": "удар"}, status=400)["fields"]["trigger"]
    ready = f.post(f.boris, "ready", {"what": "удар", "trigger": READY_SECRET})
    mine = next(c for c in ready["combat"]["combatants"] if c["id"] == bran)
    assert mine["readied"] == {"hidden": True} and ready["step"]["readied"] == {"hidden": True}
    referee = f.gm.get(f.url()).json()["combat"]
    assert next(c for c in referee["combatants"] if c["id"] == bran)["readied"]["trigger"] == (
        READY_SECRET
    )
    f.post(f.boris, "end_turn")
    # the trigger fires on the enemies' turn: the readied action is the reaction (L765)
    assert f.alice.post(f.url("trigger"), {"combatant": bran}, format="json").status_code == 403
    fired = f.post(f.boris, "trigger", {"combatant": bran})
    assert next(c for c in fired["combat"]["combatants"] if c["id"] == bran)["reaction_used"]
    assert f.post(f.boris, "trigger", {"combatant": bran}, status=409)["code"] == (
        "nothing_readied"
    )
    # the hidden assassin readies too: players learn nothing of it
    f.post(f.gm, "turn", {"combatant": hidden})
    f.post(f.gm, "ready", {"what": "удушение", "trigger": READY_SECRET})
    f.post(f.gm, "end_turn")
    # extra action is the referee's
    assert f.alice.post(f.url("extra_action"), {"combatant": ava}).status_code == 403
    extra = f.post(f.gm, "extra_action", {"combatant": ava})
    assert next(c for c in extra["combat"]["combatants"] if c["id"] == ava)["extra_now"] == 1
    assert_no_leak(f)


def test_grab_then_let_go_and_joining_mid_fight(fight):
    f = fight
    services.token_move(
        map=f.map, actor=f.table.referee, role="referee", token_id=f.t_ava.pk, col=7, row=1
    )
    f.begin()
    ava, goblin = f"t{f.t_ava.pk}", f"t{f.t_goblin.pk}"
    grab_url = f.url("grab")
    body = {"attacker": f.t_ava.pk, "target": f.t_goblin.pk}
    assert f.alice.post(grab_url, body, format="json").status_code == 409  # not her turn
    assert f.boris.post(grab_url, body, format="json").status_code in (403, 409)
    assert f.watcher.post(grab_url, body, format="json").status_code == 403
    assert f.outsider.post(grab_url, body, format="json").status_code == 404
    f.post(f.alice, "turn", {"combatant": ava})
    assert f.boris.post(grab_url, body, format="json").status_code == 403
    hidden = f.alice.post(grab_url, {**body, "target": f.t_hidden.pk}, format="json")
    assert hidden.status_code == 400 and HIDDEN not in hidden.content.decode()
    outcome, _pending, _ctx = combat.map_grab(
        map=f.map,
        actor=f.table.player,
        role="player",
        attacker_token=f.t_ava.pk,
        target_token=f.t_goblin.pk,
        dice=ScriptedDice([9, 9]),  # 18 + 1: T3, the goblin is grabbed (L741)
    )
    assert outcome.flags["grabbing"] == "Гоблин"
    assert f.entry(f.t_ava)["grabbing"] == goblin
    assert f.combat()["turn"]["maneuvers"] == 1
    assert f.post(f.boris, "release", {"combatant": ava}, status=403)
    released = f.post(f.alice, "release")
    assert next(c for c in released["combat"]["combatants"] if c["id"] == ava)["grabbing"] == ""
    assert f.post(f.alice, "release", status=409)["code"] == "not_grabbing"
    # joining: the wolf (the referee's), a second token of Ава's (her player's)
    assert f.post(f.alice, "join", {"token": f.t_wolf.pk}, status=403)["code"] == "not_owner"
    joined = f.post(f.gm, "join", {"token": f.t_wolf.pk, "side": "enemies"})
    wolf = next(c for c in joined["combat"]["combatants"] if c["id"] == f"t{f.t_wolf.pk}")
    assert wolf["side"] == "enemies"
    assert f.post(f.gm, "join", {"token": f.t_wolf.pk}, status=409)["code"] == "already_in"
    echo = services.token_create(
        map=f.map, actor=f.table.referee, name="Ава-эхо", col=0, row=6, character_id=f.ava.pk
    )
    mine = f.post(f.alice, "join", {"token": echo.pk})
    assert f"t{echo.pk}" in [c["id"] for c in mine["combat"]["combatants"]]
    assert f.post(f.boris, "join", {"token": 999999}, status=400)["code"] == "no_token"
    assert_no_leak(f)


# --- 4. the named player rolls the initiative -------------------------------------------------


def test_the_named_player_rolls_the_initiative(fight):
    f = fight
    f.post(f.gm, "start", {"tokens": [f.t_ava.pk, f.t_bran.pk, f.t_goblin.pk]})
    assert f.post(f.alice, "roller", {"roller_id": f.table.player.pk}, status=403)
    assert f.post(f.gm, "roller", {"roller_id": f.table.observer.pk}, status=400)
    named = f.post(f.gm, "roller", {"roller_id": f.table.player.pk})
    assert named["combat"]["roller"] == str(f.table.player.pk)
    assert f.alice.get(f.url()).json()["combat"]["roller"] == str(f.table.player.pk)
    assert f.post(f.boris, "initiative", status=403)["code"] == "not_roller"
    assert f.watcher.post(f.url("initiative"), {}, format="json").status_code == 403
    rolled = f.post(f.alice, "initiative")
    assert rolled["combat"]["round"] == 1 and 1 <= rolled["combat"]["initiative_roll"] <= 10
    assert rolled["step"]["roller"] == f.table.player.get_username()
    # the round is under way: no second roll until every turn is over
    assert f.post(f.alice, "initiative", status=409)["code"] == "round_on"
    for token in (f.t_ava, f.t_bran, f.t_goblin):
        f.post(f.gm, "turn", {"combatant": f"t{token.pk}", "force": True})
        f.post(f.gm, "end_turn")
    assert f.post(f.alice, "initiative")["combat"]["round"] == 2
    f.post(f.gm, "roller", {"roller_id": ""})
    assert f.post(f.alice, "initiative", status=403)["code"] == "not_roller"


def test_a_crit_from_the_map_gives_an_extra_action_this_turn(fight):
    """L815: a crit on an attack on your own turn gives an action usable any time this turn."""
    f = fight
    services.token_move(
        map=f.map, actor=f.table.referee, role="referee", token_id=f.t_ava.pk, col=7, row=1
    )
    f.begin()
    f.post(f.alice, "turn", {"combatant": f"t{f.t_ava.pk}"})
    outcome, _follow, _ctx = f.attack(f.table.player, f.t_ava, f.t_goblin, [10, 10])
    assert outcome.flags.get("extra_action") is True
    turn = f.combat()["turn"]
    assert turn["extra_actions"] == 1
    assert battle.cb.turn_budget(turn)["actions"] == 1
    last = TableEvent.objects.filter(kind="combat", visibility="players").last().payload
    assert last["type"] == "attacked" and last["extra_action"] is True


# --- surprise comes from the combat, not from the caller (L703) -------------------------------


def test_an_attack_reads_surprise_from_the_combat_in_round_1_only(fight, api_for):
    f = fight
    services.token_move(
        map=f.map, actor=f.table.referee, role="referee", token_id=f.t_ava.pk, col=7, row=1
    )
    f.begin(surprised=[f.t_goblin.pk])
    f.post(f.alice, "turn", {"combatant": f"t{f.t_ava.pk}"})
    outcome, _follow, _ctx = f.attack(f.table.player, f.t_ava, f.t_goblin, [3, 4])  # 7+1+1
    assert outcome.details["parts"]["surprised"] == 1 and outcome.total == 9
    # from the sheet, at the goblin's sheet: the same combat says the same
    f.post(f.gm, "extra_action", {"combatant": f"t{f.t_ava.pk}"})
    sheet_attack, _pending = character_services.move_make(
        character=f.ava,
        actor=f.table.player,
        move="attack",
        params={"weapon_id": "sword"},
        target_id=f.goblin.pk,
        dice=ScriptedDice([3, 4]),
    )
    assert sheet_attack.details["parts"]["surprised"] == 1
    # a sheet's attack cannot claim surprise: its combat and combatant are the server's
    move_url = f"/api/characters/{f.bran.pk}/moves/attack/"
    fake = {"round": 1, "combatants": [{"id": "x", "surprised": True}]}
    claimed = f.boris.post(
        move_url,
        {"params": {"weapon_id": "sword", "combat": fake, "combatant": "x"}},
        format="json",
    )
    assert claimed.status_code == 201, claimed.content
    assert "surprised" not in claimed.json()["outcome"]["details"]["parts"]
    refused = f.boris.post(
        move_url, {"params": {"weapon_id": "sword", "surprised": True}}, format="json"
    )
    assert refused.status_code == 400


def test_surprise_ends_with_round_1(fight):
    f = fight
    services.token_move(
        map=f.map, actor=f.table.referee, role="referee", token_id=f.t_ava.pk, col=7, row=1
    )
    f.begin(surprised=[f.t_goblin.pk])
    combat_state = f.combat()
    assert combat_state["round"] == 1
    two, _event = battle.cb.start_round(combat_state, ScriptedDice([7]))
    row = DungeonClock.objects.get(campaign=f.campaign)
    row.ruleset_state = {**row.ruleset_state, "combat": two}
    row.save(update_fields=["ruleset_state"])
    f.post(f.alice, "turn", {"combatant": f"t{f.t_ava.pk}"})
    outcome, _follow, _ctx = f.attack(f.table.player, f.t_ava, f.t_goblin, [3, 4])
    assert "surprised" not in outcome.details["parts"] and outcome.total == 8
