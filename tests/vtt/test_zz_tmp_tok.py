import cProfile, pstats, time
import pytest
from django.core.cache import cache
from tests.vtt.test_query_budgets import _token_client
from vtt.campaigns.models import Role
from vtt.characters import services as characters
from vtt.maps import services as maps
pytestmark = pytest.mark.django_db(transaction=True)

def test_time(table):
    ref = table.referee
    sheet = characters.character_create(campaign=table.campaign, actor=table.player, role=Role.PLAYER, name="Ава")
    m = maps.map_create(campaign=table.campaign, actor=ref, name="Зал", width=100, height=100, fogged=True)
    maps.map_activate(campaign=table.campaign, actor=ref, map_id=m.pk)
    own = maps.token_create(map=m, actor=ref, name="Ава", col=0, row=0, character_id=sheet.pk)
    maps.fog_set(map=m, actor=ref, cells=[(c, r) for c in range(100) for r in range(3)], revealed=True) if hasattr(maps, "fog_set") else None
    url = f"/api/campaigns/{table.campaign.pk}/maps/{m.pk}/tokens/{own.pk}/move/"
    client = _token_client(ref)
    def one(i):
        r = client.post(url, {"col": i % 100, "row": 1}, format="json")
        assert r.status_code == 200, r.content
    for i in range(5): one(i)
    n = 300
    pr = cProfile.Profile(time.process_time); pr.enable()
    c0 = time.process_time()
    for i in range(n):
        cache.clear(); one(i)
    pr.disable()
    print("\nms/move cpu", (time.process_time() - c0) / n * 1000)
    st = pstats.Stats(pr); st.sort_stats('cumulative').print_stats(80)
