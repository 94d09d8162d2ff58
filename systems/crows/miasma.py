"""The Miasma («Путешествие по суше › Миазма»): cruelty, the save at the end of a rest in it, the
effects table and leaving it.

Each row's two effects are stored as one effect on the sheet with the key ``miasma:<row>``
and the row's duration: ``miasma`` (until you leave the Miasma), ``cruelty`` (Bloodlust: until
you have no cruelty) or ``permanent`` (lost to the Miasma). Rage is instantaneous.
"""

from __future__ import annotations

import copy
from typing import Any

from systems.core.dice import Dice
from systems.crows.inventory import BACKPACK, remove, remove_wound
from systems.crows.modifiers import GLUTTONY, LOST, SLOTH, has_effect
from systems.crows.terms import MIASMA_TABLE, MiasmaRow, miasma_row

TABLE_DIE = 10  # «Путешествие по суше › Миазма»
MAX_REROLLS = 50
LYING_EXPERTISE_NOTE = "expertise:"


def is_person(state: dict[str, Any]) -> bool:
    """«Путешествие по суше › Миазма»: "each person" is a PC or a human hireling, not an animal or a
    monster."""
    return state.get("kind", "pc") in ("pc", "hireling")


def save_penalty(state: dict[str, Any]) -> int:
    """−1 per level of cruelty on the save («Путешествие по суше › Миазма»)."""
    return -int(state.get("cruelty", 0))


def advantage_from_travel(travel: dict[str, Any] | None, name: str) -> int:
    """Counter the Miasma: advantage (1) or double advantage (2) on today's save
    («Путешествие по суше › Противостоять Миазме»)."""
    if not travel:
        return 0
    return max(
        (a["count"] for a in travel.get("miasma_advantage", []) if a["name"] == name), default=0
    )


def _row_effect_present(state: dict[str, Any], row: MiasmaRow) -> bool:
    return has_effect(state, f"miasma:{row.key}")


def roll_table(state: dict[str, Any], dice: Dice) -> tuple[MiasmaRow, list[dict[str, int]]]:
    """1d10 + current cruelty; a pair already on you is rolled again
    («Путешествие по суше › Миазма»)."""
    rolls: list[dict[str, int]] = []
    for _ in range(MAX_REROLLS):
        face = dice.roll(TABLE_DIE)
        value = face + int(state["cruelty"])
        row = miasma_row(value)
        rolls.append({"roll": face, "value": value, "row": row.key})
        if not _row_effect_present(state, row):
            return row, rolls
    return row, rolls


def gain_cruelty(state: dict[str, Any], dice: Dice) -> tuple[dict[str, Any], dict[str, Any]]:
    """A failed save: +1 cruelty, then the table roll with the cruelty just gained
    («Путешествие по суше › Миазма»)."""
    st = copy.deepcopy(state)
    st["cruelty"] = int(st.get("cruelty", 0)) + 1
    row, rolls = roll_table(st, dice)
    st, applied = apply_row(st, row, dice)
    return st, {
        "type": "miasma_effect",
        "cruelty": st["cruelty"],
        "rolls": rolls,
        "row": row.as_dict(),
        **applied,
    }


def apply_row(
    state: dict[str, Any], row: MiasmaRow, dice: Dice
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Both effects of a row («Путешествие по суше › Миазма»;
    «Путешествие по суше › Эффекты Миазмы»)."""
    st = copy.deepcopy(state)
    info: dict[str, Any] = {}
    if row.key == "rage":
        st, info = _rage(st, dice)
    elif row.key == "lost":
        # «Путешествие по суше › Эффекты Миазмы»: every other Miasma effect and all cruelty end; no
        # new effects ever; an NPC.
        st["effects"] = [
            e for e in st["effects"] if not str(e.get("key", "")).startswith("miasma:")
        ]
        st = _drop_lying_expertise(st, state)
        st["cruelty"] = 0
        st["miasma_lost"] = True
        info["npc"] = True
    if row.duration != "instant":
        st["effects"].append(
            {
                "id": f"miasma:{row.key}",
                "name": row.ru,
                "duration": row.duration,
                "wear_dice": 0,
                "source": "Миазма",
                "note": "",
                "key": f"miasma:{row.key}",
                "stacks": 1,
                "caster": "",
            }
        )
    if row.key == "lying":
        info["choose_expertise"] = (
            True  # the player picks one they lack («Путешествие по суше › Эффекты Миазмы»)
        )
    return st, info


def _rage(st: dict[str, Any], dice: Dice) -> tuple[dict[str, Any], dict[str, Any]]:
    """Rage («Путешествие по суше › Эффекты Миазмы»): one random mundane backpack item is destroyed
    (the Referee picks at random, here a die over the candidates); then 3 Stamina back, or at full
    Stamina 1 wound less."""
    info: dict[str, Any] = {}
    candidates = [
        c["id"]
        for p in st["inventory"]["placed"]
        if p["area"] == BACKPACK
        for c in p["items"]
        if not c["magic"] and c["corpse"] is None
    ]
    if candidates:
        pick = dice.roll(len(candidates)) if len(candidates) > 1 else 1
        st["inventory"], card = remove(st["inventory"], candidates[pick - 1])
        info["destroyed"] = card["id"]
    if st["stamina"] >= st["stamina_max"]:
        st["inventory"], slot = remove_wound(st["inventory"])
        info["wound_removed"] = slot
    else:
        before = st["stamina"]
        st["stamina"] = min(st["stamina_max"], st["stamina"] + 3)
        info["stamina_regained"] = st["stamina"] - before
    return st, info


def clear_cruelty(state: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """All cruelty is gone: Bloodlust ends with it («Путешествие по суше › Эффекты Миазмы»)."""
    st = copy.deepcopy(state)
    st["cruelty"] = 0
    ended = [e["id"] for e in st["effects"] if e["duration"] == "cruelty"]
    st["effects"] = [e for e in st["effects"] if e["duration"] != "cruelty"]
    return st, ended


def _drop_lying_expertise(st: dict[str, Any], before: dict[str, Any]) -> dict[str, Any]:
    for effect in before["effects"]:
        note = str(effect.get("note", ""))
        if effect.get("key") == "miasma:lying" and note.startswith(LYING_EXPERTISE_NOTE):
            key = note[len(LYING_EXPERTISE_NOTE) :]
            st["expertises"] = [e for e in st["expertises"] if e["key"] != key]
    return st


def leave_miasma(state: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """Entering a place fully enclosed by stone or metal («Путешествие по суше › Миазма»): every
    "until you leave the Miasma" effect ends, with the expertise Lying granted. Cruelty stays
    until a full rest there («Путешествие по суше › Миазма»)."""
    st = copy.deepcopy(state)
    st = _drop_lying_expertise(st, state)
    ended = [e["id"] for e in st["effects"] if e["duration"] == "miasma"]
    st["effects"] = [e for e in st["effects"] if e["duration"] != "miasma"]
    return st, ended


def grant_lying_expertise(state: dict[str, Any], key: str) -> dict[str, Any]:
    """Lying («Путешествие по суше › Эффекты Миазмы»): an expertise you lack, with 1 use (not in the
    rulebook; our reading), noted on the effect so it is lost on leaving."""
    from systems.core.schema import fail

    st = copy.deepcopy(state)
    effect = next((e for e in st["effects"] if e.get("key") == "miasma:lying"), None)
    if effect is None:
        raise fail("expertise", "На вас нет «Лжи» Миазмы.", "You are not under Lying.")
    if str(effect.get("note", "")).startswith(LYING_EXPERTISE_NOTE):
        raise fail("expertise", "Экспертиза уже выбрана.", "The expertise is already chosen.")
    if any(e["key"] == key for e in st["expertises"]):
        raise fail("expertise", "Эта экспертиза у вас уже есть.", "You already have it.")
    st["expertises"].append({"key": key, "uses": 1, "max": 1})
    effect["note"] = f"{LYING_EXPERTISE_NOTE}{key}"
    return st


# --- rest hooks («Путешествие по суше › Миазма»; «Путешествие по суше › Эффекты Миазмы») ------


def rest_rations_needed(state: dict[str, Any], miasma: bool) -> int:
    """Gluttony: at least 2 rations per rest to benefit, while in the Miasma
    («Путешествие по суше › Эффекты Миазмы»)."""
    return 2 if miasma and has_effect(state, GLUTTONY) else 1


def rest_wounds_removed(state: dict[str, Any]) -> int:
    """Sloth: resting removes 2 wounds instead of 1 («Путешествие по суше › Эффекты Миазмы»)."""
    return 2 if has_effect(state, SLOTH) else 1


def refreshes_expertise(state: dict[str, Any], miasma: bool) -> bool:
    """No expertise refresh at the end of a rest in the Miasma («Путешествие по суше › Миазма»),
    except for one lost to it («Путешествие по суше › Эффекты Миазмы»)."""
    return not miasma or has_effect(state, LOST)


def after_rest(state: dict[str, Any], miasma: bool) -> tuple[dict[str, Any], list[dict]]:
    """A rest finished outside the Miasma: all cruelty is lost («Путешествие по суше › Миазма»),
    Bloodlust with it, and the "until you leave" effects are over."""
    if miasma:
        return copy.deepcopy(state), []
    events = []
    st, left = leave_miasma(state)
    had = int(state.get("cruelty", 0))
    st, ended = clear_cruelty(st)
    if had or ended or left:
        events.append(
            {"type": "cruelty_cleared", "cruelty_before": had, "effects_ended": [*left, *ended]}
        )
    return st, events


def table_as_dicts() -> list[dict[str, Any]]:
    return [row.as_dict() for row in MIASMA_TABLE]
