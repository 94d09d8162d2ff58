"""The GM's benny pool is the table's: every path that spends one of its bennies (the table's
choice endpoint, the generic pending-choice endpoint, the sheet's "spend a benny" action)
takes it off exactly once, only for the referee, and refuses with 409 once the pool is empty,
even when two spends race for the last benny."""

from __future__ import annotations

import threading

import pytest
from django.db import close_old_connections, connection

from systems.core.dice import ScriptedDice
from vtt.characters import services as character_services
from vtt.characters.models import Character, PendingMove
from vtt.rulesets.savage_worlds import table_state as bennies
from vtt.table.models import TableEvent
from vtt.tablestate import services
from vtt.tablestate.models import TableState

from .conftest import sw_character


def set_pool(table, n: int) -> None:
    current = bennies.pool(table.campaign)
    if n != current:
        services.table_move(
            campaign=table.campaign,
            actor=table.referee,
            role="referee",
            move="adjust_pool",
            params={"delta": n - current},
        )
    assert bennies.pool(table.campaign) == n


def failed_roll(table, npc: Character, **params) -> PendingMove:
    """An extra's Strength d6 rolls 1: a failure that waits for a pool re-roll."""
    _out, pending = character_services.move_make(
        character=npc,
        actor=table.referee,
        move="trait_check",
        params={"trait": "strength", **params},
        dice=ScriptedDice([1]),
    )
    assert pending is not None and pending.chooser == "referee"
    return pending


def pending_url(pending: PendingMove) -> str:
    return f"/api/characters/{pending.character_id}/pending/{pending.pk}/"


def benny_events():
    return TableEvent.objects.filter(kind="tablestate", payload__action="benny")


def test_the_generic_pending_endpoint_takes_a_pool_benny_off_the_table(sw, api_for):
    orc = sw_character(sw, name="Орк", kind="npc")
    set_pool(sw, 2)
    pending = failed_roll(sw, orc)
    assert {o["key"] for o in pending.outcome["options"]} == {"keep", "reroll_pool"}
    response = api_for(sw.referee).post(
        pending_url(pending), {"choices": ["reroll_pool"]}, format="json"
    )
    assert response.status_code == 200, response.content
    assert bennies.pool(sw.campaign) == 1  # exactly one, not zero and not two
    spent = benny_events().get()
    assert spent.payload["data"]["source"] == "pool" and spent.payload["data"]["name"] == "Орк"
    assert spent.payload["snapshot"]["pool"] == 1
    # the rules count the same pool as the table: one left, so a second re-roll is offered
    # if the re-roll failed again, and the outcome says what is left
    body = response.json()
    assert body["outcome"]["details"]["pool"] == 1


def test_the_table_endpoint_also_takes_it_once(sw, api_for):
    orc = sw_character(sw, name="Орк", kind="npc")
    set_pool(sw, 2)
    pending = failed_roll(sw, orc)
    response = api_for(sw.referee).post(
        f"/api/campaigns/{sw.campaign.pk}/table-state/choices/",
        {"character_id": orc.pk, "pending_id": pending.pk, "choice": "reroll_pool"},
        format="json",
    )
    assert response.status_code == 200, response.content
    assert response.json()["pool"] == 1 and bennies.pool(sw.campaign) == 1
    assert benny_events().count() == 1


def test_players_cannot_spend_the_pool_on_either_endpoint(sw, api_for):
    orc = sw_character(sw, name="Орк", kind="npc")
    hidden = sw_character(sw, name="Тень", kind="npc", hidden=True)
    set_pool(sw, 2)
    pending = failed_roll(sw, orc)
    client = api_for(sw.player)
    response = client.post(pending_url(pending), {"choices": ["reroll_pool"]}, format="json")
    assert response.status_code == 403 and response.json()["code"] == "referee_chooses"
    response = client.post(
        f"/api/campaigns/{sw.campaign.pk}/table-state/choices/",
        {"character_id": orc.pk, "pending_id": pending.pk, "choice": "reroll_pool"},
        format="json",
    )
    assert response.status_code == 403 and response.json()["code"] == "referee_chooses"
    secret = failed_roll(sw, hidden)
    response = client.post(pending_url(secret), {"choices": ["reroll_pool"]}, format="json")
    assert response.status_code == 404
    assert bennies.pool(sw.campaign) == 2 and not benny_events().exists()
    assert PendingMove.objects.filter(resolved_at__isnull=True).count() == 2


def test_an_empty_pool_is_a_409_and_changes_nothing(sw, api_for):
    orc = sw_character(sw, name="Орк", kind="npc")
    goblin = sw_character(sw, name="Гоблин", kind="npc")
    set_pool(sw, 1)
    first = failed_roll(sw, orc)
    second = failed_roll(sw, goblin)  # made while one benny was left: the option is offered
    client = api_for(sw.referee)
    first_response = client.post(pending_url(first), {"choices": ["reroll_pool"]}, format="json")
    assert first_response.status_code == 200
    assert bennies.pool(sw.campaign) == 0
    version = TableState.objects.get(pk=sw.campaign.pk).version
    events = TableEvent.objects.count()
    goblin_version = Character.objects.get(pk=goblin.pk).version
    response = client.post(pending_url(second), {"choices": ["reroll_pool"]}, format="json")
    assert response.status_code == 409
    assert response.json()["code"] == "pool_empty"
    assert "пул ведущего пуст" in response.json()["detail"].lower()  # Russian by default
    assert bennies.pool(sw.campaign) == 0
    assert TableState.objects.get(pk=sw.campaign.pk).version == version
    assert TableEvent.objects.count() == events
    assert Character.objects.get(pk=goblin.pk).version == goblin_version
    assert PendingMove.objects.get(pk=second.pk).resolved_at is None
    # keeping the roll still works
    kept = client.post(pending_url(second), {"choices": ["keep"]}, format="json")
    assert kept.status_code == 200


def test_after_a_pool_reroll_the_next_offer_counts_what_the_table_has_left(sw):
    orc = sw_character(sw, name="Орк", kind="npc")
    set_pool(sw, 2)
    pending = failed_roll(sw, orc)  # the move saw 2 in the pool
    set_pool(sw, 1)  # the referee spent one elsewhere meanwhile
    outcome, follow = character_services.move_choose(
        pending=pending,
        actor=sw.referee,
        role="referee",
        choices=["reroll_pool"],
        dice=ScriptedDice([2]),  # fails again
    )
    assert bennies.pool(sw.campaign) == 0
    assert follow is None and not outcome.pending  # no pool benny left to offer
    assert outcome.details["pool"] == 0 and outcome.details["pool_spent"] == 1


def test_the_pool_a_move_may_spend_is_the_tables_not_the_callers(sw, api_for):
    orc = sw_character(sw, name="Орк", kind="npc")
    set_pool(sw, 0)
    outcome, pending = character_services.move_make(
        character=orc,
        actor=sw.referee,
        move="trait_check",
        params={"trait": "strength", "pool": 99},
        dice=ScriptedDice([1]),
    )
    assert pending is None and not outcome.pending  # nothing to pay with


def test_soak_from_the_pool_through_the_generic_endpoint(sw, api_for):
    villain = sw_character(sw, name="Злодей", kind="npc", wild_card=True)
    set_pool(sw, 1)
    _out, pending = character_services.move_make(
        character=villain, actor=sw.referee, move="take_damage", params={"damage": 9}
    )
    assert {o["key"] for o in pending.outcome["options"]} == {"accept", "soak_pool"}
    response = api_for(sw.referee).post(
        pending_url(pending), {"choices": ["soak_pool"]}, format="json"
    )
    assert response.status_code == 200, response.content
    assert bennies.pool(sw.campaign) == 0
    assert benny_events().get().payload["data"]["purpose"] == "soak"


def test_the_spend_a_benny_action_takes_it_off_the_pool(sw, api_for):
    villain = sw_character(sw, name="Злодей", kind="npc", wild_card=True, shaken=True)
    ava = sw_character(sw, user=sw.player, name="Ава")
    set_pool(sw, 1)
    url = f"/api/characters/{villain.pk}/moves/spend_benny/"
    body = {"params": {"purpose": "unshake", "source": "pool", "pool": 50}}
    response = api_for(sw.referee).post(url, body, format="json")
    assert response.status_code == 201, response.content
    assert bennies.pool(sw.campaign) == 0
    assert response.json()["character"]["state"]["shaken"] is False
    spent = benny_events().get()
    assert spent.payload["data"]["purpose"] == "spend" and spent.payload["data"]["pool"] == 0
    response = api_for(sw.referee).post(url, body, format="json")
    assert response.status_code == 409 and response.json()["code"] == "pool_empty"
    # a player's character never pays from the GM's pool
    set_pool(sw, 1)
    response = api_for(sw.player).post(
        f"/api/characters/{ava.pk}/moves/spend_benny/",
        {"params": {"purpose": "unshake", "source": "pool"}},
        format="json",
    )
    assert response.status_code == 409 and response.json()["detail"]
    assert bennies.pool(sw.campaign) == 1
    # a player cannot even reach the NPC's sheet moves
    response = api_for(sw.player).post(url, body, format="json")
    assert response.status_code in (403, 404)
    assert bennies.pool(sw.campaign) == 1


@pytest.mark.django_db(transaction=True)
def test_two_spends_of_the_last_pool_benny_at_once_never_overdraw(sw):
    orcs = [sw_character(sw, name=f"Орк {i}", kind="npc") for i in range(2)]
    set_pool(sw, 1)
    pendings = [failed_roll(sw, orc) for orc in orcs]
    barrier = threading.Barrier(2)
    results: dict[int, object] = {}

    def spend(i: int) -> None:
        try:
            barrier.wait(timeout=5)
            results[i] = character_services.move_choose(
                pending=pendings[i],
                actor=sw.referee,
                role="referee",
                choices=["reroll_pool"],
                dice=ScriptedDice([2]),
            )
        except Exception as exc:
            results[i] = exc
        finally:
            close_old_connections()
            connection.close()

    threads = [threading.Thread(target=spend, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    errors = [r for r in results.values() if isinstance(r, Exception)]
    assert len(results) == 2 and len(errors) == 1, results
    assert getattr(errors[0], "code", None) == "pool_empty", errors
    assert bennies.pool(sw.campaign) == 0
    assert benny_events().count() == 1
    assert PendingMove.objects.filter(resolved_at__isnull=True).count() == 1
