"""One settings module, driven by the environment (DESIGN.md, "Running it").

With nothing set it runs embedded: SQLite, an in-memory channel layer and a Celery worker inside
the web process. ``DATABASE_URL`` and ``REDIS_URL`` switch to PostgreSQL and Redis. Every secret
can also be read from a file named by ``<NAME>_FILE`` (Docker and systemd secrets).
"""

from __future__ import annotations

import gc
import os
import sys
from pathlib import Path

import environ
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()


def _secret(name: str, default: str | None = None) -> str | None:
    """Read ``NAME`` or the contents of the file ``NAME_FILE``."""
    path = os.environ.get(f"{name}_FILE")
    if path:
        return Path(path).read_text().strip()
    return os.environ.get(name, default)


DEV_SECRET_KEY = "django-insecure-vtt-development-key-do-not-use-in-production"

DEBUG = env.bool("DEBUG", default=True)
SECRET_KEY = _secret("SECRET_KEY", DEV_SECRET_KEY)
if not DEBUG and SECRET_KEY == DEV_SECRET_KEY:
    raise ImproperlyConfigured(
        "DEBUG is off but SECRET_KEY is the built-in development key. "
        "Set SECRET_KEY (or SECRET_KEY_FILE) to a long random value."
    )

ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "template_partials",
    "vtt.core",
    "vtt.accounts",
    "vtt.campaigns",
    "vtt.table",
    "vtt.characters",
    "vtt.prep",
    "vtt.tablestate",
    "vtt.maps",
    "vtt.journal",
    # Each ruleset's web side (vtt/rulesets/base.py): the generic apps above reach them only
    # through vtt.rulesets.registry.
    "vtt.rulesets.dungeon_world.apps.DungeonWorldConfig",
    "vtt.rulesets.crows.apps.CrowsConfig",
    "vtt.rulesets.city_of_judas.apps.CityOfJudasConfig",
    "vtt.rulesets.tales.apps.TalesConfig",
    "vtt.rulesets.savage_worlds.apps.SavageWorldsConfig",
]

MIDDLEWARE = [
    # First, so a PostgreSQL or Redis outage anywhere below answers 503, not 500.
    "vtt.core.outage.OutageMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "vtt.core.middleware.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # Loads the user while a database outage can still be answered with a 503 (vtt/core/outage.py).
    "vtt.core.outage.UserOutageMiddleware",
    "vtt.accounts.middleware.UserLanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Ids past the database's integer range in a URL are a 404, not a failed query.
    "vtt.core.middleware.IdRangeMiddleware",
    # NUL in a form post or a query string is a 400, as in a JSON body.
    "vtt.core.middleware.FormTextMiddleware",
    "vtt.core.middleware.ServiceErrorMiddleware",
]

ROOT_URLCONF = "vtt.urls"
ASGI_APPLICATION = "vtt.asgi.application"
WSGI_APPLICATION = "vtt.wsgi.application"
AUTH_USER_MODEL = "accounts.User"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# --- Database -----------------------------------------------------------------------------
DATABASE_URL = _secret("DATABASE_URL")
if DATABASE_URL:
    DATABASES = {"default": env.db_url_config(DATABASE_URL)}
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": str(env.str("SQLITE_PATH", default=str(BASE_DIR / "db.sqlite3"))),
        }
    }
_db = DATABASES["default"]
if _db["ENGINE"] == "django.db.backends.postgresql":
    # Under ASGI every request runs in a fresh thread: persistent connections leak, so use
    # psycopg's pool instead (DESIGN.md, pitfalls).
    _db["CONN_MAX_AGE"] = 0
    # The pool checks a connection before handing it out (one empty round trip), so after
    # PostgreSQL restarts requests get fresh connections instead of failing on dead ones.
    _db["CONN_HEALTH_CHECKS"] = env.bool("DB_HEALTH_CHECKS", default=True)
    _db.setdefault("OPTIONS", {})["pool"] = {
        "min_size": env.int("DB_POOL_MIN", default=2),
        "max_size": env.int("DB_POOL_MAX", default=20),
        "timeout": env.float("DB_POOL_TIMEOUT", default=10.0),
        # psycopg retries a failed connection with doubling delays (1, 2, 4 … s) until this
        # many seconds pass, then starts afresh on the next request. Its default (300 s) let
        # the delay grow past 30 s in an outage, so requests kept failing long after
        # PostgreSQL was back; 5 s keeps recovery within about two seconds.
        "reconnect_timeout": env.float("DB_POOL_RECONNECT_TIMEOUT", default=5.0),
    }
elif _db["ENGINE"] == "django.db.backends.sqlite3":
    # WAL lets readers and one writer work at once; IMMEDIATE takes the write lock up front
    # so concurrent writers queue (timeout) instead of failing with "database is locked".
    _db.setdefault("OPTIONS", {}).update(
        {
            "timeout": 20,
            "transaction_mode": "IMMEDIATE",
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
    )
    # Tests use a file, not shared-cache memory: threads and other processes then see real
    # SQLite locking (busy timeout, WAL) as the embedded app does.
    _db["TEST"] = {
        "NAME": env.str("SQLITE_TEST_PATH", default=str(BASE_DIR / f".test-{os.getpid()}.sqlite3"))
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Redis: channel layer, cache, Celery broker ----------------------------------------------
REDIS_URL = _secret("REDIS_URL")
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            # channels-redis' core layer: a Redis queue per socket, and a Redis outage raises
            # in the socket's receive, which closes it with 4503 (vtt/core/outage.py) so the
            # browser reconnects and replays. CHANNEL_LAYER_BACKEND may pick
            # channels_redis.pubsub.RedisPubSubChannelLayer (docs/design-notes.md).
            "BACKEND": env.str(
                "CHANNEL_LAYER_BACKEND", default="channels_redis.core.RedisChannelLayer"
            ),
            "CONFIG": {
                # redis-py 8 closes idle sockets after 5 s unless the timeout is lifted
                # (DESIGN.md, pitfalls).
                "hosts": [{"address": REDIS_URL, "socket_timeout": None}],
                # the core layer's limits (the pub/sub layer ignores them)
                "capacity": 1500,
                "expiry": 30,
                "prefix": env.str("CHANNEL_PREFIX", default="vtt"),
            },
        }
    }
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": env.str("CACHE_PREFIX", default="vtt"),
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default=REDIS_URL or "memory://localhost/")
if CELERY_BROKER_URL.startswith(("redis://", "rediss://")):
    # kombu's Redis transport with a fix that keeps workers alive through a Redis restart.
    CELERY_BROKER_TRANSPORT = "vtt.core.broker:Transport"
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = "UTC"
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
# Embedded mode runs the worker as a thread of the web process (the memory transport does not
# cross processes). Off as soon as a real broker is configured.
EMBEDDED_WORKER = env.bool("EMBEDDED_WORKER", default=CELERY_BROKER_URL.startswith("memory://"))
WORKER_HEARTBEAT_SECONDS = env.int("WORKER_HEARTBEAT_SECONDS", default=10)
SOCKETS_PER_USER = env.int("SOCKETS_PER_USER", default=20)
# The shortest dungeon turn the API accepts (tests and demos use seconds; tables use minutes).
CLOCK_MIN_SECONDS = env.int("CLOCK_MIN_SECONDS", default=60)
CELERY_BEAT_SCHEDULE = {
    # Ends turns whose deadline passed while every worker was down (the ETA task is the
    # fast path; this is the safety net).
    "sweep-clocks": {"task": "vtt.table.sweep_clocks", "schedule": 15.0},
}
# ETA tasks wait in Redis up to a turn (60 min max); keep them invisible longer than that so
# they are not redelivered early (a redelivery would still be a no-op, see vtt/table/clock.py).
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 4 * 3600}

# --- Auth, sessions, security ------------------------------------------------------------------
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "campaign_list"
LOGOUT_REDIRECT_URL = "login"

SECURE_PROXY_SSL_HEADER = (
    ("HTTP_X_FORWARDED_PROTO", "https") if env.bool("BEHIND_HTTPS_PROXY", default=False) else None
)
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=not DEBUG)
SESSION_COOKIE_SECURE = env.bool("SESSION_COOKIE_SECURE", default=not DEBUG)
CSRF_COOKIE_SECURE = env.bool("CSRF_COOKIE_SECURE", default=not DEBUG)
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=0 if DEBUG else 31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=not DEBUG)
SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=not DEBUG)
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
# Scripts only from our own files: no inline <script>, no on*= handlers, no eval (htmx's hx-on
# is not used). Inline style attributes stay allowed: pages and scripts position and colour
# elements with them, and a style cannot run code. Sockets are same-origin ('self' covers ws:
# and wss: on the page's host). Empty: no header.
CONTENT_SECURITY_POLICY = env.str(
    "CONTENT_SECURITY_POLICY",
    default="; ".join(
        [
            "default-src 'self'",
            "script-src 'self'",
            "style-src 'self' 'unsafe-inline'",
            "img-src 'self' data: blob:",
            "font-src 'self' data:",
            "connect-src 'self'",
            "object-src 'none'",
            "base-uri 'self'",
            "form-action 'self'",
            "frame-ancestors 'none'",
        ]
    ),
)
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_HTTPONLY = True
DATA_UPLOAD_MAX_MEMORY_SIZE = 2 * 1024 * 1024
# Images (map backgrounds, tokens): at most 20 MB and 100 megapixels, checked and re-encoded by
# vtt/maps/images.py. Uploads are multipart, so the file part does not count against
# DATA_UPLOAD_MAX_MEMORY_SIZE (form fields only); files above FILE_UPLOAD_MAX_MEMORY_SIZE
# stream to a temporary file instead of memory, and a body past the limit is refused (413)
# from its Content-Length before Django parses it. Before any of it is received: nginx's
# client_max_body_size in docker/nginx/vtt.conf.template (daphne reads the whole body first).
MAP_UPLOAD_MAX_BYTES = env.int("MAP_UPLOAD_MAX_BYTES", default=20 * 1024 * 1024)
MAP_UPLOAD_MAX_PIXELS = env.int("MAP_UPLOAD_MAX_PIXELS", default=100_000_000)
FILE_UPLOAD_MAX_MEMORY_SIZE = 2 * 1024 * 1024

# --- Language ----------------------------------------------------------------------------------
LANGUAGE_CODE = "ru"
LANGUAGES = [("ru", _("Russian")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
LANGUAGE_COOKIE_NAME = "vtt_language"
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
USE_I18N = True
TIME_ZONE = env.str("TIME_ZONE", default="Europe/Moscow")
USE_TZ = True

# --- Static files --------------------------------------------------------------------------------
STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
MEDIA_URL = "media/"
MEDIA_ROOT = Path(env.str("MEDIA_ROOT", default=str(BASE_DIR / "media")))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        # Hashed names need collectstatic; production runs it (Dockerfile, Procfile release).
        "BACKEND": "vtt.core.staticfiles.ModuleManifestStaticFilesStorage"
        if env.bool("STATIC_MANIFEST", default=not DEBUG)
        else "whitenoise.storage.CompressedStaticFilesStorage",
    },
}
WHITENOISE_USE_FINDERS = DEBUG

# --- API -------------------------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # Token first so an anonymous API call gets 401 with a WWW-Authenticate header.
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["vtt.core.drf_permissions.IsAuthenticatedInOwnLanguage"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_RENDERER_CLASSES": [
        "rest_framework.renderers.JSONRenderer",
        "rest_framework.renderers.BrowsableAPIRenderer",
    ],
    # DRF's parsers with a nesting limit and the text check (vtt/core/jsonsafe.py): deep JSON,
    # and NUL in JSON, a form or a multipart text field, is a 400.
    "DEFAULT_PARSER_CLASSES": [
        "vtt.core.jsonsafe.JSONParser",
        "vtt.core.jsonsafe.FormParser",
        "vtt.core.jsonsafe.MultiPartParser",
    ],
    "EXCEPTION_HANDLER": "vtt.core.api.exception_handler",
    "DEFAULT_THROTTLE_RATES": {"login": "10/min"},
}
SPECTACULAR_SETTINGS = {
    "TITLE": "VTT API",
    "DESCRIPTION": "Campaigns, members, invites and (later) the live table. Session auth with "
    "CSRF for browsers, `Authorization: Token <key>` for scripts.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    # Swagger UI from the installed sidecar package, never from a CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "ENUM_NAME_OVERRIDES": {
        "MemberRoleEnum": "vtt.campaigns.models.Role",
        "InvitableRoleEnum": "vtt.campaigns.models.INVITABLE_ROLES",
        "VisibilityEnum": "vtt.table.models.Visibility",
        "UserVisibilityEnum": "vtt.table.models.USER_CHOICES",
        "PrepRollVisibilityEnum": [("blind", "blind"), ("everyone", "everyone")],
        "LanguageEnum": ["ru", "en"],
    },
    # The shared refusals (400/401/403/404, and 409/429 on writes) on every operation.
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "vtt.core.schema.document_errors",
    ],
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
    "loggers": {"django.db.backends": {"level": "WARNING"}},
}

# Demo logins printed by `make run`; never used outside seed_demo.
DEMO_PASSWORD = env.str("DEMO_PASSWORD", default="demo-vtt-2026")

# --- Process tuning (docs/performance.md) ------------------------------------------------------
# A daphne process runs its event loop (sockets, Redis) in one thread and every sync view in
# another, under one GIL. A thread that released the GIL for I/O waits up to the switch interval
# to get it back while another thread computes, once per socket write or database round trip.
GIL_SWITCH_INTERVAL_MS = env.float("GIL_SWITCH_INTERVAL_MS", default=0.0)
if GIL_SWITCH_INTERVAL_MS > 0:
    sys.setswitchinterval(GIL_SWITCH_INTERVAL_MS / 1000)

# The collector's full pass walks every tracked object. With 600 sockets open a daphne process
# tracks ~330 000, and under load a full pass ran about every 10 s and stopped the event loop
# for 0.2-0.6 s each time: every delivery due meanwhile waited (docs/performance.md). What
# exists once the process serves (modules, URL patterns, templates, settings) never becomes
# garbage, so the first request moves it out of the collector's way (gc.freeze), and full
# passes run a tenth as often (third threshold 100, not 10); young objects are collected as
# often as ever.
GC_THRESHOLDS = env.list("GC_THRESHOLDS", cast=int, default=[700, 10, 100])
gc.set_threshold(*GC_THRESHOLDS)
if env.bool("GC_FREEZE_AFTER_STARTUP", default=not DEBUG):
    from django.core.signals import request_started

    def _freeze_startup_heap(**_kwargs) -> None:
        request_started.disconnect(_freeze_startup_heap)
        gc.freeze()

    request_started.connect(_freeze_startup_heap, weak=False)
