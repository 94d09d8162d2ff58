"""The event loop's PostgreSQL pool (vtt/core/adb.py) against the real database."""

from __future__ import annotations

import asyncio

import pytest
from django.db import connection

from vtt.core import adb

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@pytest.fixture
def postgres():
    if connection.vendor != "postgresql":
        pytest.skip("needs DATABASE_URL (PostgreSQL): the pool is psycopg's async driver")


async def test_a_free_slot_is_taken_at_once_and_a_full_pool_times_out(postgres):
    pool = adb.Pool(1)
    try:
        # No wait at all is needed for a free slot: the request does not give the event loop
        # a turn (under load, other tables' frames) before it runs.
        async with pool.connection(0) as conn:
            await conn.execute("SELECT 1")
            with pytest.raises(TimeoutError):
                async with pool.connection(0.05):
                    pass
        async with pool.connection(0) as again:
            assert again is conn  # the idle connection is reused
            assert (await (await again.execute("SELECT 2")).fetchone())[0] == 2
    finally:
        await pool.close()


async def test_a_waiting_request_gets_the_slot_when_it_is_freed(postgres):
    pool = adb.Pool(1)
    try:
        order = []

        async def hold() -> None:
            async with pool.connection(1):
                order.append("first")
                await asyncio.sleep(0.1)

        async def wait() -> None:
            async with pool.connection(5):
                order.append("second")

        await asyncio.gather(hold(), wait())
        assert order == ["first", "second"]
    finally:
        await pool.close()
