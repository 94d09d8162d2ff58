"""Database queries per request, counted in-process on the bench's own database.

``python -m bench.probe --plan plan.json`` sends one roll, one character move (Defy Danger,
once with a bonus that cannot miss and once with a penalty that cannot hit: a miss marks XP,
which saves a sheet version) and one token move through the real API stack (DRF token auth,
views, services, the event log, the channel layer push) against the plan's ``probe`` table,
which no client watches, after one warm-up of each; it prints
``queries  roll=<n> move=<n> move_miss=<n> token=<n>`` (``failed(<status>)`` for a kind whose
request was refused, with the response on stderr, and exits 1). The same counts are asserted not to
grow with members, sheets or tokens in tests/vtt/test_query_budgets.py and
tests/vtt/table/test_query_budget.py; this shows them on the database and settings under load.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

import django

HOST = "127.0.0.1"  # in ALLOWED_HOSTS of the bench's daphne environment


def count(plan: dict[str, Any]) -> dict[str, int | str]:
    """Queries of the second request of each kind (the first warms caches up)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from rest_framework.test import APIClient

    probe = plan["probe"]
    client = APIClient(SERVER_NAME=HOST)
    client.credentials(HTTP_AUTHORIZATION=f"Token {probe['tokens'][0]}")
    cid, map_id, token_id = probe["characters"][0], probe["map_id"], probe["map_tokens"][0]
    size = plan["map_size"]
    requests = {
        "roll": lambda i: (
            f"/api/campaigns/{probe['id']}/rolls/",
            {"notation": "2d6+1", "label": f"probe-{i}"},
        ),
        # +5 on 2d6 at +0 never misses; -17 always does (a miss marks XP: a sheet version)
        "move": lambda i: (
            f"/api/characters/{cid}/moves/defy_danger/",
            {"params": {"approach": "agility", "bonus": 5}},
        ),
        "move_miss": lambda i: (
            f"/api/characters/{cid}/moves/defy_danger/",
            {"params": {"approach": "agility", "bonus": -5, "aid": -12}},
        ),
        "token": lambda i: (
            f"/api/campaigns/{probe['id']}/maps/{map_id}/tokens/{token_id}/move/",
            {"col": size - 1 - i, "row": size - 1},
        ),
    }
    counts: dict[str, int | str] = {}
    for kind, make in requests.items():
        for i in range(2):
            path, body = make(i)
            with CaptureQueriesContext(connection) as ctx:
                response = client.post(path, body, format="json")
            if not 200 <= response.status_code < 300:
                print(
                    f"probe {kind}: {response.status_code} {response.content[:300]!r}",
                    file=sys.stderr,
                )
                counts[kind] = f"failed({response.status_code})"
                break
        else:
            counts[kind] = len(ctx.captured_queries)
    return counts


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--plan", required=True)
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "vtt.settings")
    django.setup()
    with open(args.plan) as f:
        plan = json.load(f)
    counts = count(plan)
    print("queries  " + " ".join(f"{k}={v}" for k, v in counts.items()), flush=True)
    sys.exit(0 if all(isinstance(v, int) for v in counts.values()) else 1)


if __name__ == "__main__":
    main()
