"""Two deal requests at the same moment: the row lock makes the second wait for the first, so it
deals from the deck the first one left and never deals a card that is already out."""

from __future__ import annotations

import threading

import pytest
from django.db import close_old_connections, connection
from django.test.utils import CaptureQueriesContext

from systems.core.dice import RandomDice, ScriptedDice
from systems.savage_worlds import deck as dk
from vtt.table.models import TableEvent
from vtt.tablestate import services
from vtt.tablestate.models import TableState

from .conftest import sw_character


class SlowShuffler(RandomDice):
    """Real dice that hold the lock a while, so the racing request certainly arrives while
    the first one is still dealing."""

    def __init__(self, started: threading.Event) -> None:
        self.started = started

    def shuffle(self, items: list) -> None:
        self.started.set()
        threading.Event().wait(0.3)
        super().shuffle(items)


@pytest.mark.django_db(transaction=True)
def test_two_deals_at_once_never_deal_the_same_card_twice(sw):
    people = [sw_character(sw, name=f"Боец {i}", kind="npc") for i in range(6)]
    participants = [{"character_id": c.pk} for c in people]
    # The deck is due a shuffle (a fresh deck), so the first deal shuffles while holding the
    # lock; the second request starts during that shuffle.
    started = threading.Event()
    results: dict[str, object] = {}
    barrier = threading.Barrier(2)

    def deal(name: str, dice) -> None:
        try:
            barrier.wait(timeout=5)
            if name == "second":
                started.wait(timeout=5)
            _ts, outcome = services.table_move(
                campaign=sw.campaign,
                actor=sw.referee,
                role="referee",
                move="deal_round",
                params={"participants": participants},
                dice=dice,
            )
            results[name] = outcome
        except Exception as exc:  # pragma: no cover - reported by the assertion below
            results[name] = exc
        finally:
            close_old_connections()
            connection.close()

    threads = [
        threading.Thread(target=deal, args=("first", SlowShuffler(started))),
        threading.Thread(target=deal, args=("second", RandomDice())),
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert not any(isinstance(r, Exception) for r in results.values()), results
    rounds = sorted(r.details["round"] for r in results.values())
    assert rounds == [1, 2]
    first, second = sorted(results.values(), key=lambda r: r.details["round"])
    cards_1 = [e["card"] for e in first.details["initiative"]]
    cards_2 = [e["card"] for e in second.details["initiative"]]
    assert len(set(cards_1)) == len(cards_1) == 6 and len(set(cards_2)) == len(cards_2) == 6
    if not first.flags["joker"]:  # a joker round reshuffles: then the same card may return
        assert not set(cards_1) & set(cards_2)
    ts = TableState.objects.get(pk=sw.campaign.pk)
    assert ts.version == 2
    assert dk.check_deck(ts.state["deck"]) == []
    dealt = TableEvent.objects.filter(
        kind="tablestate", payload__action="deal_round", visibility="players"
    )
    assert sorted(e.payload["version"] for e in dealt) == [1, 2]


@pytest.mark.django_db
def test_every_write_locks_the_row(sw):
    """On PostgreSQL the lock is ``SELECT … FOR UPDATE``."""
    if not connection.features.has_select_for_update:
        pytest.skip("SQLite serialises whole writes; the PostgreSQL pass checks the row lock")
    sw_character(sw, name="Боец", kind="npc")
    with CaptureQueriesContext(connection) as queries:
        services.table_move(
            campaign=sw.campaign,
            actor=sw.referee,
            role="referee",
            move="start_combat",
            dice=ScriptedDice([], shuffles=[dk.full_deck()]),
        )
    reads = [q["sql"] for q in queries.captured_queries if "tablestate_tablestate" in q["sql"]]
    assert reads, "the service must read the table state"
    assert "FOR UPDATE" in reads[0]
