"""Load benchmark of the live table: ``make bench`` (docs/performance.md).

Processes, all on loopback: the server under test (daphne, or the bare baseline server), one
asyncio process holding every websocket client (``bench.clients``) and one open-loop load
generator (``bench.loadgen``). ``bench.run`` sets them up, runs both phases and prints the
report.
"""
