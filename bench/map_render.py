"""Server render time of a big map: 100 × 100 cells, 500 tokens, half the map fogged.

    .venv/bin/python bench/map_render.py [--runs 15] [--size 100] [--tokens 500]

Builds its own throwaway SQLite database and media folder, then renders, for the referee and
for a player: the table page (which carries the map panel), the panel fragment, the map's API
state, and (referee) the map editor page; and the players' masked background once cold and
once cached. Prints min / median / max in milliseconds. Performance is printed here, never
asserted in a unit test.
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUDGET_MS = 300


def setup(workdir: Path) -> None:
    sys.path.insert(0, str(ROOT))
    os.environ["DJANGO_SETTINGS_MODULE"] = "vtt.settings"
    os.environ.setdefault("DEBUG", "1")
    os.environ["SQLITE_PATH"] = str(workdir / "bench.sqlite3")
    os.environ["MEDIA_ROOT"] = str(workdir / "media")
    os.environ.pop("DATABASE_URL", None)
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def build(size: int, tokens: int):
    from PIL import Image

    from vtt.accounts.models import User
    from vtt.campaigns import services as campaign_services
    from vtt.campaigns.models import Membership, Role
    from vtt.characters.models import Character
    from vtt.maps import services
    from vtt.maps.models import Token
    from vtt.maps.selectors import Urls  # noqa: F401  (import cost outside the timings)

    referee = User.objects.create_user(username="bench-gm", password=None)
    player = User.objects.create_user(username="bench-pc", password=None)
    campaign = campaign_services.campaign_create(user=referee, name="Bench", ruleset="crows")
    Membership.objects.create(campaign=campaign, user=player, role=Role.PLAYER)
    pc = Character.objects.create(
        campaign=campaign, owner=player, kind="pc", ruleset="crows", name="Bench PC"
    )
    m = services.map_create(
        campaign=campaign, actor=referee, name="Big", width=size, height=size, cell_px=40
    )
    services.map_activate(campaign=campaign, actor=referee, map_id=m.pk)
    services.fog_change(map=m, actor=referee, reveal=True, rect=[0, 0, size // 2 - 1, size - 1])
    image = Image.effect_noise((size * 40 // 2, size * 40 // 2), 60).convert("RGB")
    out = io.BytesIO()
    image.save(out, "PNG")
    from django.core.files.uploadedfile import SimpleUploadedFile

    services.background_set(
        map=m, actor=referee, upload=SimpleUploadedFile("bg.png", out.getvalue(), "image/png")
    )
    m.refresh_from_db()
    sizes = ["medium", "medium", "medium", "small", "large", "huge"]
    Token.objects.bulk_create(
        Token(
            map=m,
            name=f"Token {i}",
            col=(i * 7) % size,
            row=(i * 13) % size,
            size=sizes[i % len(sizes)],
            cells={"large": 2, "huge": 3}.get(sizes[i % len(sizes)], 1),
            hidden=i % 10 == 0,
            speed=6,
            character=pc if i == 0 else None,
        )
        for i in range(tokens)
    )
    for i in range(50):
        services.note_create(
            map=m, actor=referee, col=i, row=i, text=f"Note {i}", secret=i % 2 == 0
        )
    return campaign, m, referee, player


def timed(fn, runs: int) -> list[float]:
    fn()  # warm up (template loading, first queries)
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - start) * 1000)
    return samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--size", type=int, default=100)
    parser.add_argument("--tokens", type=int, default=500)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="vtt-map-bench-") as tmp:
        setup(Path(tmp))
        from django.test import Client

        from vtt.maps import images

        campaign, m, referee, player = build(args.size, args.tokens)
        clients = {}
        for name, user in (("referee", referee), ("player", player)):
            client = Client(HTTP_HOST="localhost")
            client.force_login(user)
            clients[name] = client
        c = campaign.pk
        cases = [
            ("table page (with the map panel)", f"/campaigns/{c}/table/", ("referee", "player")),
            ("map panel fragment", f"/campaigns/{c}/maps/panel/", ("referee", "player")),
            ("map state (API)", f"/api/campaigns/{c}/maps/{m.pk}/", ("referee", "player")),
            ("map editor page", f"/campaigns/{c}/maps/{m.pk}/", ("referee",)),
        ]
        print(
            f"{args.size}×{args.size} cells, {args.tokens} tokens, 50 notes, half fogged; "
            f"{args.runs} runs each (ms: min / median / max)"
        )
        worst = 0.0
        for label, url, roles in cases:
            for role in roles:
                client = clients[role]

                def get(client=client, url=url):
                    response = client.get(url)
                    assert response.status_code == 200, (url, response.status_code)

                samples = timed(get, args.runs)
                median = statistics.median(samples)
                worst = max(worst, median)
                print(
                    f"  {label:<34} {role:<8} {min(samples):7.1f} {median:7.1f} {max(samples):7.1f}"
                )
        images.delete_masked(m.pk)
        start = time.perf_counter()
        images.masked_background(m)
        cold = (time.perf_counter() - start) * 1000
        start = time.perf_counter()
        images.masked_background(m)
        warm = (time.perf_counter() - start) * 1000
        print(
            f"  players' masked background ({m.bg_width}×{m.bg_height} px): "
            f"{cold:.1f} cold (once per fog change), {warm:.2f} cached"
        )
        verdict = "within" if worst < BUDGET_MS else "OVER"
        print(f"slowest median {worst:.1f} ms: {verdict} the {BUDGET_MS} ms budget")


if __name__ == "__main__":
    main()
