"""Settings for damas-swiss, read from the environment.

Environment variables:
  DATABASE_URL   database (default: SQLite file db.sqlite3 in the project folder)
  SECRET_KEY     required when DEBUG is off
  DEBUG          "1"/"true" to turn on debug (default on for local use, off when DJANGO_ENV=production)
  ALLOWED_HOSTS  comma-separated host names
  REDIS_URL      optional: the cache shared by all app servers (default: per-process memory cache)
  CACHE_KEY_PREFIX  the prefix of this site's keys in that Redis database (default "damas")
  STAFF_SESSION_HOURS  how long a login stays logged in, from the login (default 12; issue 25, item 15)
  LAN            "1" (`make run LAN=1`, never in production): also answer on this machine's addresses on the
                 venue's network, so players' phones on the Wi-Fi reach the laptop (tournaments/core/lan.py)
"""

import os
from pathlib import Path
from typing import Any

import dj_database_url
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


PRODUCTION = os.environ.get("DJANGO_ENV", "").lower() == "production"
DEBUG = env_bool("DEBUG", default=not PRODUCTION)

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if PRODUCTION:
        from django.core.exceptions import ImproperlyConfigured

        raise ImproperlyConfigured("SECRET_KEY must be set in production (DJANGO_ENV=production).")
    SECRET_KEY = "dev-only-insecure-key-do-not-use-in-production"

ALLOWED_HOSTS = [h.strip() for h in os.environ.get("ALLOWED_HOSTS", "127.0.0.1,localhost").split(",") if h.strip()]
# LAN mode (the venue laptop serving the phones on its Wi-Fi): the laptop's own addresses and names, nothing more.
LAN = env_bool("LAN") and not PRODUCTION
if LAN:
    from tournaments.core.lan import lan_hosts

    ALLOWED_HOSTS += [h for h in lan_hosts() if h not in ALLOWED_HOSTS]
CSRF_TRUSTED_ORIGINS = [o.strip() for o in os.environ.get("CSRF_TRUSTED_ORIGINS", "").split(",") if o.strip()]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_tables2",
    "rest_framework",
    "django_tasks",
    "django_tasks_db",
    "tournaments",
]

MIDDLEWARE = [
    # First: a body over MAX_REQUEST_BYTES is refused before any middleware reads it.
    "tournaments.core.middleware.RequestSizeLimitMiddleware",
    # A NUL byte or a lone surrogate (text no database column holds) is a 400 (issue 25, item 10).
    "tournaments.core.middleware.UnstorableTextMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # Content-Security-Policy on everything; Cache-Control: private, no-store on staff and logged-in pages.
    "tournaments.core.middleware.SecurityHeadersMiddleware",
    # Public pages with no form and no secret (the venue screen, the printed pages) are gzipped (issue 34.14).
    "tournaments.core.middleware.PublicCompressionMiddleware",
    # The live pages' version check, every 5 s from every phone watching: answered here, before the session,
    # locale, CSRF and auth middlewares it does not need (issue 34.14, bench/live_version.py).
    "tournaments.public.live.LiveVersionMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "tournaments.core.middleware.PortugueseByDefaultMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # A login's session lasts STAFF_SESSION_HOURS and ends on every device at "Sair de todos os aparelhos".
    "tournaments.accounts.sessions.StaffSessionMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

# Every password checked is counted: growing waits per login, address and known device (issue 34.3,
# tournaments.accounts.lockout). Django's own backend stays listed for the sessions it logged in; it never checks
# a password (the first one ends every check).
AUTHENTICATION_BACKENDS = [
    "tournaments.accounts.lockout.ThrottledModelBackend",
    "django.contrib.auth.backends.ModelBackend",
]
# Sessions (issue 25, item 15). A login (staff: directors, arbiters, the federation) on a shared venue laptop
# lasts STAFF_SESSION_HOURS from the moment it logged in (12: a tournament day), whatever is done meanwhile, and
# "Sair de todos os aparelhos" ends it on every device (tournaments.accounts.sessions). A player's phone, signed
# in with the code of its card, holds no login: its session keeps SESSION_COOKIE_AGE (14 days, Django's), and the
# arbiter ends it by issuing a new code.
STAFF_SESSION_HOURS = float(os.environ.get("STAFF_SESSION_HOURS", "12"))
SESSION_COOKIE_AGE = 14 * 24 * 3600
# The proxies whose X-Forwarded-For names the client: the load balancer (addresses or networks, comma-separated;
# "*" trusts every address). The same variable gunicorn reads (config/gunicorn.py), with the same default.
TRUSTED_PROXIES = [p.strip() for p in os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1").split(",") if p.strip()]

# Uploads: each form has its limit (rating list 10 MB, opening table 2 MB, tournament file 20 MB); no request
# body may be larger than this, whatever the URL.
MAX_REQUEST_BYTES = int(os.environ.get("MAX_REQUEST_BYTES", str(21 * 1024 * 1024)))

# Every script, style sheet, image and font is served from the site itself (static/, WhiteNoise); the board
# diagrams and QR codes are inline SVG. No inline <script> or <style>, no style="" attribute.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
)

ROOT_URLCONF = "config.urls"

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
                "tournaments.federation.context.federation_role",
            ],
        },
    },
]

WSGI_APPLICATION = "config.wsgi.application"

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "0")),
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # IMMEDIATE transactions avoid "database is locked" when a read transaction upgrades to a write;
    # the busy timeout lets a second arbiter's save wait for the first one instead of failing.
    DATABASES["default"].setdefault("OPTIONS", {}).update({"transaction_mode": "IMMEDIATE", "timeout": 20})

REDIS_URL = os.environ.get("REDIS_URL", "")


def caches_for(redis_url: str) -> dict[str, Any]:
    """The page cache: Redis when ``redis_url`` is given, else each process's memory.

    Redis is an optimisation: ``ResilientRedisCache`` answers "not cached" while Redis is unreachable (logged once
    per process, tried again every ``CACHE_RETRY_SECONDS``), so the site goes on uncached; its connections give
    up quickly (``CACHE_CONNECT_TIMEOUT``, ``CACHE_TIMEOUT`` seconds) so that a dead host does not hold requests."""
    if not redis_url:
        return {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "damas"}}
    return {
        "default": {
            "BACKEND": "tournaments.core.resilient_cache.ResilientRedisCache",
            "LOCATION": redis_url,
            # Two sites (or test runs) sharing one Redis database keep apart by their prefix.
            "KEY_PREFIX": os.environ.get("CACHE_KEY_PREFIX", "") or "damas",
            "RETRY_SECONDS": float(os.environ.get("CACHE_RETRY_SECONDS", "30")),
            "OPTIONS": {
                "socket_connect_timeout": float(os.environ.get("CACHE_CONNECT_TIMEOUT", "0.5")),
                "socket_timeout": float(os.environ.get("CACHE_TIMEOUT", "2")),
            },
        }
    }


CACHES = caches_for(REDIS_URL)

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "pt-br"
LANGUAGES = [("pt-br", _("Português (Brasil)")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = "America/Sao_Paulo"
USE_TZ = True

# Without DEBUG outside production (`make run` serves so, with the public's error pages), WhiteNoise serves the
# static files straight from static/, no collectstatic needed. STATIC_ROOT, collectstatic's folder, is a production
# setting: set outside production, WhiteNoise warned at every start that the folder did not exist.
WHITENOISE_USE_FINDERS = not PRODUCTION
STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles" if PRODUCTION else None
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if PRODUCTION
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Background work (django-tasks): the queue is a table of this database (django-tasks-db), so a task enqueued on
# a laptop survives its being closed; `python manage.py run_worker` runs them, waiting out database outages
# (`make run` starts one beside the server, restarted if it dies; production: deploy/systemd/damas-worker.service). TASKS_BACKEND=immediate runs each task inside the call that enqueues it (tests, or a one-off command).
TASKS_BACKEND = os.environ.get("TASKS_BACKEND", "database")
TASKS = {
    "default": {
        "BACKEND": "django_tasks.backends.immediate.ImmediateBackend"
        if TASKS_BACKEND == "immediate"
        else "django_tasks_db.DatabaseBackend",
        "QUEUES": ["default", "federation"],
    }
}

# Which side of the federation this server is (issue 29): "venue" (default: a laptop running events, which may
# send them to the federation) or "federation" (receives, verifies and homologates stages; its API and review
# pages are active only then). A venue sends to FEDERATION_URL with the credential FEDERATION_TOKEN the
# federation issued.
DAMAS_ROLE = os.environ.get("DAMAS_ROLE", "venue").strip().lower()
if DAMAS_ROLE not in ("venue", "federation"):
    from django.core.exceptions import ImproperlyConfigured

    raise ImproperlyConfigured("DAMAS_ROLE must be 'venue' or 'federation'.")
FEDERATION_URL = os.environ.get("FEDERATION_URL", "").strip().rstrip("/")
FEDERATION_TOKEN = os.environ.get("FEDERATION_TOKEN", "").strip()
# The wait after a first failed try to reach the federation, doubled at each failure up to an hour.
FEDERATION_FIRST_WAIT = float(os.environ.get("FEDERATION_FIRST_WAIT", "30"))
# The largest interchange file the federation's API accepts, the one limit of its bodies (answered as a JSON 413;
# a 2,000-player, 11-round event is about 1.15 MB). docs/federation.md.
FEDERATION_MAX_BODY = int(os.environ.get("FEDERATION_MAX_BODY", str(8 * 1024 * 1024)))
# Per credential, within FEDERATION_RATE_WINDOW seconds: at most FEDERATION_RATE_SENDS files sent and
# FEDERATION_RATE_BYTES bytes (a JSON 429 with Retry-After beyond; issue 34.9). docs/federation.md.
FEDERATION_RATE_WINDOW = int(os.environ.get("FEDERATION_RATE_WINDOW", "3600"))
FEDERATION_RATE_SENDS = int(os.environ.get("FEDERATION_RATE_SENDS", "30"))
FEDERATION_RATE_BYTES = int(os.environ.get("FEDERATION_RATE_BYTES", str(24 * 1024 * 1024)))
# At the federation: how long a worker may take to verify a stage before another worker takes it over (a worker
# killed mid-verification; issue 34.5). A 2,000-player event verifies in well under a minute.
FEDERATION_VERIFY_LEASE = int(os.environ.get("FEDERATION_VERIFY_LEASE", "600"))

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [],
    "DEFAULT_PERMISSION_CLASSES": [],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["rest_framework.parsers.JSONParser"],
    "UNAUTHENTICATED_USER": None,
}

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "/gestao/"
LOGOUT_REDIRECT_URL = "/"

DJANGO_TABLES2_TEMPLATE = "django_tables2/bootstrap4.html"

if PRODUCTION:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True

# Logs: to standard error always, and to LOG_FILE too when it is set (a WatchedFileHandler: logrotate may move
# the file away). The app's own loggers (tournaments, pairing, draughts, config) log at LOG_LEVEL: WARNING by
# default (what went wrong: an internal error with its traceback, a record the game viewer cannot read); INFO adds
# every pairing, import and export and every refusal of a user's action. Other libraries log at WARNING.
LOG_LEVEL = os.environ.get("LOG_LEVEL", "WARNING").upper()
LOG_FILE = os.environ.get("LOG_FILE", "")
_log_handlers = ["console"] + (["file"] if LOG_FILE else [])
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s [%(process)d] %(message)s"}},
    # a refusal (403, 404, a host the site does not answer) is one line, not a traceback (issue 37.10)
    "filters": {"refusals": {"()": "tournaments.core.log_filters.RefusalsOnOneLine"}},
    "handlers": {
        "console": {"class": "logging.StreamHandler", "formatter": "plain", "filters": ["refusals"]},
        "nowhere": {"class": "logging.NullHandler"},
        **(
            {
                "file": {
                    "class": "logging.handlers.WatchedFileHandler",
                    "filename": LOG_FILE,
                    "formatter": "plain",
                    "filters": ["refusals"],
                }
            }
            if LOG_FILE
            else {}
        ),
    },
    "root": {"handlers": _log_handlers, "level": "WARNING"},
    "loggers": {
        # the app's loggers only set their level: their records reach the root's handlers
        **{name: {"level": LOG_LEVEL} for name in ("tournaments", "pairing", "draughts", "config")},
        # the line per request of Django's server (`make run` serves with it: manage.py serve): the phones'
        # pages every few seconds would fill the director's console; refusals and errors print (django.request's)
        "django.server": {"handlers": ["nowhere"], "propagate": False},  # (no handler: Python's last resort prints)
    },
}
