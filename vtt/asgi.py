"""ASGI entry point for daphne: HTTP through Django, websockets through Channels."""

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "vtt.settings")

from django.core.asgi import get_asgi_application

# Django first (it sets up the apps) before anything that imports models.
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.conf import settings  # noqa: E402

from vtt.core.origin import SiteOriginValidator  # noqa: E402
from vtt.core.outage import SocketOutageGuard  # noqa: E402
from vtt.core.socket_auth import TokenAuthMiddleware  # noqa: E402
from vtt.routing import websocket_urlpatterns  # noqa: E402

if settings.EMBEDDED_WORKER:
    from vtt.core.worker import start_embedded_worker

    start_embedded_worker()

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        # Only the site's own pages (scheme, host and port: vtt/core/origin.py) open a socket,
        # and scripts with an API token and no Origin (vtt/core/socket_auth.py).
        # An outage of PostgreSQL or Redis: an error frame and close 4503, not a dead socket.
        "websocket": SiteOriginValidator(
            SocketOutageGuard(
                AuthMiddlewareStack(TokenAuthMiddleware(URLRouter(websocket_urlpatterns)))
            )
        ),
    }
)
