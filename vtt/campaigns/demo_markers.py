"""Marker strings that ``manage.py seed_demo`` writes into every kind of hidden data.

The demo campaigns carry a referee's secrets the way a real referee would leave them (a secret
note on the map, a hidden token, a hidden NPC, a keyed room, a blind roll, a whisper...), each
with a distinctive marker. The browser tests record everything a player's browser receives and
fail if a marker reaches someone who may not see it (``tests/e2e/leakscan.py``).

Pure constants: the test process imports this without touching the database.
"""

from __future__ import annotations

# Whatever starts with this is the referee's alone.
REFEREE = "ТАЙНА-ВЕДУЩЕГО"
# Private to one player (and the referee): another player must never receive it.
BORIS = "ЛИЧНОЕ-БОРИСА"
ALICE = "ЛИЧНОЕ-АЛИСЫ"
BETWEEN_PLAYERS = "ШЁПОТ-БОРИСА-АЛИСЕ"

# The referee's secrets, one marker per kind of hidden data.
MAP_NOTE_SECRET = f"{REFEREE}-ЗАМЕТКА-НА-КАРТЕ"  # a secret note on a revealed cell
MAP_NOTE_FOGGED = f"{REFEREE}-ЗАМЕТКА-В-ТУМАНЕ"  # an open note on a fogged cell
TOKEN_HIDDEN = f"{REFEREE}-СКРЫТЫЙ-ЖЕТОН"  # a hidden token on a revealed cell
TOKEN_FOGGED = f"{REFEREE}-ЖЕТОН-В-ТУМАНЕ"  # a token on a fogged cell
MAP_INACTIVE = f"{REFEREE}-КАРТА-НЕ-НА-СТОЛЕ"  # a prepared map that is not on the table
NPC_HIDDEN = f"{REFEREE}-СКРЫТЫЙ-ПЕРСОНАЖ"  # a hidden NPC (its name and its sheet)
NPC_NOTES = f"{REFEREE}-ЗАМЕТКИ-О-ПЕРСОНАЖЕ"  # the notes on a visible NPC's sheet
INITIATIVE_HIDDEN = f"{REFEREE}-ИНИЦИАТИВА"  # a hidden entry in the initiative
DUNGEON = f"{REFEREE}-ПОДЗЕМЕЛЬЕ"  # a prepared dungeon (name and description)
ROOM_TEXT = f"{REFEREE}-КОМНАТА"  # a keyed room's text
TREASURE = f"{REFEREE}-СОКРОВИЩЕ"  # a room's treasure
ROOM_MONSTER = f"{REFEREE}-МОНСТР-В-КОМНАТЕ"  # the note on a monster placed in a room
RANDOM_TABLE = f"{REFEREE}-ТАБЛИЦА"  # a random table (name, note and entries)
ROLL_REFEREE = f"{REFEREE}-БРОСОК-ДЛЯ-ВЕДУЩЕГО"  # the label of a referee-only roll
ROLL_BLIND = f"{REFEREE}-СЛЕПОЙ-БРОСОК"  # the label of a blind roll
CHAT_REFEREE = f"{REFEREE}-ЗАПИСЬ"  # a chat line for the referee only
CLOCK_ENCOUNTER = f"{REFEREE}-ВСТРЕЧА"  # the reason of an encounter check (Crows clock)
EXTRAS_HIDDEN = f"{REFEREE}-ЗАСАДА"  # a hidden group of extras dealt in (Savage Worlds)
JOURNAL_SECRET = f"{REFEREE}-ЖУРНАЛ"  # an unshared journal entry (title, text, image label)

# One player's private data.
WHISPER_TO_BORIS = f"{BORIS}-ШЁПОТ"  # the referee whispers to Boris
BORIS_NOTES = f"{BORIS}-ЗАМЕТКИ"  # Boris's own notes on his sheet
BORIS_ROLL = f"{BORIS}-БРОСОК"  # Boris rolls for the referee only
WHISPER_TO_ALICE = BETWEEN_PLAYERS  # Boris whispers to Alice
ALICE_NOTES = f"{ALICE}-ЗАМЕТКИ"  # Alice's own notes on her sheet
JOURNAL_TO_BORIS = f"{BORIS}-ПИСЬМО"  # a journal entry shared with Boris alone
ALICE_JOURNAL = f"{ALICE}-ДНЕВНИК"  # Alice's private journal note

# Who besides the referee may receive what starts with each prefix (usernames).
ALLOWED: dict[str, frozenset[str]] = {
    REFEREE: frozenset(),
    BORIS: frozenset({"boris"}),
    ALICE: frozenset({"alice"}),
    BETWEEN_PLAYERS: frozenset({"alice", "boris"}),
}

# The background of the demo maps paints the rooms still under fog in this colour, so a
# background that reaches a player unmasked shows it.
SECRET_RGB = (200, 30, 160)
