"""The cache every app process shares (Redis), and how a process serves without it.

Redis holds three things, all through Django's cache (`django.core.cache.cache`):
the request counts of the rate limits (django-ratelimit's, accounts/ratelimit.py and
accounts/throttle.py), cached token lookups (accounts/selectors.py), and the domain
list. Django's cache goes through Django's Redis backend, except the two calls every
rate-limited request makes (django-ratelimit's `add`, then `incr`): that backend builds
a redis-py client for each call (filling its table of some 170 commands: the largest
Python cost of a count, profiled) and makes `incr` two round trips (EXISTS, then
INCR). Here they are one command each on
redis-py's own client (one per process, thread-safe over its pool), with the values
encoded by Django's own serializer, so that either side reads what the other wrote.
The rate limits count in RateLimitCache (at the end), which sends the two as one script.
Token lookups live under an epoch (below), on that client too: read with one MGET,
written by a script.
Maps too big to read whole for one entry (the domain map: a field per domain) are
Redis hashes on the same client, replaced at once (hash_write) and read a few fields at
a time (hash_read). Both only through their public interfaces.

While Redis cannot be reached the process serves without it, rather than fail:

* Django's cache is this process's memory: the rate limits count there, and each
  process allows each caller the whole limit (accounts/ratelimit.py says why);
* `lookup_get` raises RedisUnavailable at once and the caller reads the database;
  lookups are not written;
* after a failure Redis is left alone for RETRY_SECONDS: a host that does not answer
  costs one connect timeout per process that often, not one per request. The first
  call after that tries again, and one that succeeds ends the outage, without a
  restart;
* one warning a minute per process at most, one line when Redis is back, and
  /readyz says "degraded" (config/health.py).

Cached lookups may be stale after an outage: a token revoked while Redis was
unreachable could not leave its tombstone (accounts/services.py), and a Redis that
kept its data through a network cut still holds the old row. So lookups live under
an epoch, and the first process to reach Redis again after an outage starts a new
one: nothing cached before is read again.
"""

import contextlib
import logging
import pickle
import threading
import time
import uuid

import redis
from django.core.cache import DEFAULT_CACHE_ALIAS, caches
from django.core.cache.backends.base import DEFAULT_TIMEOUT, BaseCache
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache, RedisSerializer
from redis.backoff import NoBackoff
from redis.retry import Retry

logger = logging.getLogger(__name__)

# Long enough that an unreachable host holds each process up rarely (one connect
# timeout each time), short enough that shared counts resume within seconds.
RETRY_SECONDS = 2.0
WARNING_SECONDS = 60.0
# redis-py retries a failed command ten times by default (3.7 s to find a stopped
# Redis on loopback); the breaker here does the waiting instead.
_NO_RETRIES = Retry(NoBackoff(), 0)
# What redis-py raises when Redis cannot be reached in time.
REDIS_UNREACHABLE = (redis.ConnectionError, redis.TimeoutError)
# Fields written per HSET when a hash is replaced.
_HASH_CHUNK = 2000

# KEYS[1] the counter, ARGV[1] the amount. Django's cache interface: a missing key is
# an error (nil here, ValueError for the caller), never a new counter.
_INCR = """
if redis.call('exists', KEYS[1]) == 0 then return false end
return redis.call('incrby', KEYS[1], ARGV[1])
"""

# Lookups are read with one plain MGET of the epoch and the entry (lookup_get), which
# is kept under its own name and begins with the epoch it was written in: an entry of
# an earlier epoch is as good as none. Written by this script, rarely: KEYS[1] the
# epoch; ARGV[1] the prefix of lookup keys, ARGV[2] the operation, ARGV[3] the lifetime
# or the value to keep, then name and value pairs.
_LOOKUP_WRITE = """
local epoch = (redis.call('get', KEYS[1]) or '0') .. ':'
local operation = ARGV[2]
for i = 4, #ARGV, 2 do
  local key = ARGV[1] .. ARGV[i]
  local held = redis.call('get', key)
  local current = held and string.sub(held, 1, #epoch) == epoch
  if operation == 'set' or (operation == 'add' and not current) then
    redis.call('set', key, epoch .. ARGV[i + 1], 'EX', ARGV[3])
  elseif operation == 'keep' and held and held ~= epoch .. ARGV[3] then
    redis.call('del', key)
  end
end
return 0
"""


class RedisUnavailable(Exception):
    """Redis did not answer just now, or failed within the last RETRY_SECONDS."""


class _Breaker:
    """Whether this process may ask Redis now, and the log lines of an outage."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.down_since: float | None = None
        self.retry_at = 0.0
        self.warned_at = -WARNING_SECONDS

    def closed(self) -> bool:
        return self.down_since is None or time.monotonic() >= self.retry_at

    def failed(self, error: Exception) -> None:
        now = time.monotonic()
        with self.lock:
            if self.down_since is None:
                self.down_since = now
            self.retry_at = now + RETRY_SECONDS
            warn = now - self.warned_at >= WARNING_SECONDS
            if warn:
                self.warned_at = now
        if warn:
            logger.warning(
                "Redis is unreachable (%s): serving without it, rate limits counted per"
                " process and tokens read from the database; trying again every %.0f s",
                error,
                RETRY_SECONDS,
            )

    def answered(self) -> None:
        with self.lock:
            if self.down_since is None:
                return
            down_for, self.down_since = time.monotonic() - self.down_since, None
        logger.warning("Redis answers again after %.1f s: shared counts resume", down_for)


# Per process and Redis address, whichever thread or cache instance asks.
_breakers: dict[str, _Breaker] = {}
_clients: dict[str, redis.Redis] = {}


class SharedCache(BaseCache):
    """Django's Redis cache while Redis answers, this process's memory while it does not,
    plus the lookups and maps of this module."""

    def __init__(self, server: str, params: dict) -> None:
        super().__init__(params)
        options = {**params.get("OPTIONS", {}), "retry": _NO_RETRIES}
        self._redis = RedisCache(server, {**params, "OPTIONS": options})
        # Rate-limit counts too while Redis is away: one per caller and window.
        memory = {**params, "OPTIONS": {"MAX_ENTRIES": 100_000}}
        self.local = LocMemCache(f"shared-cache-fallback:{server}", memory)
        self._breaker = _breakers.setdefault(server, _Breaker())
        self.client = _clients.get(server)
        if self.client is None:
            self.client = _clients[server] = redis.Redis.from_url(server, **options)
        self._incr_script = self.client.register_script(_INCR)
        self._serializer = RedisSerializer()
        self._lookup_write = self.client.register_script(_LOOKUP_WRITE)
        self._epoch_key = self.make_key("lookup-epoch")
        self._lookup_prefix = self.make_key("lookup") + ":"

    # -- the guard every call to Redis goes through ----------------------------------------

    def _ask(self, call):
        breaker = self._breaker
        if not breaker.closed():
            raise RedisUnavailable
        try:
            if breaker.down_since is not None:
                # Before anything is read: lookups cached before the outage may be stale.
                self.client.incr(self._epoch_key)
                breaker.answered()
            return call()
        except REDIS_UNREACHABLE as error:
            breaker.failed(error)
            raise RedisUnavailable from error

    def reachable(self) -> bool:
        try:
            return bool(self._ask(self.client.ping))
        except RedisUnavailable:
            return False

    # -- Django's cache interface ----------------------------------------------------------

    def _either(self, method: str, *args, **kwargs):
        try:
            return self._ask(lambda: getattr(self._redis, method)(*args, **kwargs))
        except RedisUnavailable:
            return getattr(self.local, method)(*args, **kwargs)

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        expiry = self.default_timeout if timeout == DEFAULT_TIMEOUT else timeout
        if expiry is not None and expiry <= 0:  # added and gone at once: Django's way
            return self._either("add", key, value, timeout, version=version)
        expiry = None if expiry is None else int(expiry)
        name, data = self.make_and_validate_key(key, version=version), self._serializer.dumps(value)
        try:
            return bool(self._ask(lambda: self.client.set(name, data, nx=True, ex=expiry)))
        except RedisUnavailable:
            return self.local.add(key, value, timeout, version=version)

    def get(self, key, default=None, version=None):
        return self._either("get", key, default, version=version)

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return self._either("set", key, value, timeout, version=version)

    def touch(self, key, timeout=DEFAULT_TIMEOUT, version=None):
        return self._either("touch", key, timeout, version=version)

    def delete(self, key, version=None):
        return self._either("delete", key, version=version)

    def get_many(self, keys, version=None):
        return self._either("get_many", keys, version=version)

    def has_key(self, key, version=None):
        return self._either("has_key", key, version=version)

    def incr(self, key, delta=1, version=None):
        name = self.make_and_validate_key(key, version=version)
        try:
            value = self._ask(lambda: self._incr_script(keys=[name], args=[delta]))
        except RedisUnavailable:
            return self.local.incr(key, delta, version=version)
        if value is None:
            raise ValueError(f"Key {key!r} not found.")
        return value

    def set_many(self, data, timeout=DEFAULT_TIMEOUT, version=None):
        return self._either("set_many", data, timeout, version=version)

    def delete_many(self, keys, version=None):
        return self._either("delete_many", keys, version=version)

    def clear(self):
        # Both: entries written to memory during an outage must not outlive a clear.
        self.local.clear()
        return self._either("clear")

    def close(self, **kwargs):
        self._redis.close(**kwargs)

    # -- lookups ---------------------------------------------------------------------------

    def lookup_read(self, key: str) -> bytes | None:
        """The entry's bytes, or None when it is missing or of an earlier epoch."""
        epoch, held = self._ask(
            lambda: self.client.mget((self._epoch_key, self._lookup_prefix + key))
        )
        prefix = (epoch or b"0") + b":"
        return held[len(prefix) :] if held is not None and held.startswith(prefix) else None

    def lookup_write(self, operation: str, argument: object, items: list) -> None:
        self._ask(
            lambda: self._lookup_write(
                keys=[self._epoch_key], args=[self._lookup_prefix, operation, argument, *items]
            )
        )

    # -- maps ------------------------------------------------------------------------------

    def hash_read(self, key: str, fields: list[str], *, along: str) -> tuple[list, object]:
        try:
            values = self._ask(lambda: self.client.hmget(self.make_key(key), fields))
        except RedisUnavailable:
            return _map_read(self.local, key, fields, along=along)
        # `along` is Django's to encode: read through Django's cache, a second round trip.
        return [None if value is None else value.decode() for value in values], self.get(along)

    def hash_write(self, key: str, mapping: dict[str, str], *, timeout: int) -> None:
        def write() -> None:
            name = self.make_key(key)
            # Built under a name of its own and renamed: readers see the old hash or the
            # new one, never half of it, and no single command holds Redis for long.
            building = f"{name}:building:{uuid.uuid4().hex}"
            items = list(mapping.items())
            with self.client.pipeline(transaction=False) as pipe:
                for start in range(0, len(items), _HASH_CHUNK):
                    pipe.hset(building, mapping=dict(items[start : start + _HASH_CHUNK]))
                pipe.expire(building, timeout)
                pipe.rename(building, name)
                pipe.execute()

        try:
            self._ask(write)
        except RedisUnavailable:
            self.local.set(key, dict(mapping), timeout)


def _shared() -> SharedCache | None:
    # The backend itself: django.core.cache.cache is a proxy that isinstance() cannot see through.
    cache = caches[DEFAULT_CACHE_ALIAS]
    return cache if isinstance(cache, SharedCache) else None


def hash_read(key: str, fields: list[str], *, along: str) -> tuple[list, object]:
    """The values of some fields of a map of the default cache (None for a missing field
    or a missing map) and the value of the key `along`."""
    shared = _shared()
    if shared is not None:
        return shared.hash_read(key, fields, along=along)
    return _map_read(caches[DEFAULT_CACHE_ALIAS], key, fields, along=along)


def _map_read(cache: BaseCache, key: str, fields: list[str], *, along: str) -> tuple[list, object]:
    """hash_read from a cache that keeps a map as one value (a dict)."""
    values = cache.get_many([key, along])
    mapping = values.get(key) or {}
    return [mapping.get(field) for field in fields], values.get(along)


def hash_write(key: str, mapping: dict[str, str], *, timeout: int) -> None:
    """Replaces a map of the default cache whole; it lives `timeout` seconds."""
    shared = _shared()
    if shared is not None:
        shared.hash_write(key, mapping, timeout=timeout)
    else:
        caches[DEFAULT_CACHE_ALIAS].set(key, dict(mapping), timeout)


def lookup_get(key: str) -> object:
    """A cached lookup, or None. RedisUnavailable when Redis cannot be reached."""
    shared = _shared()
    if shared is None:
        raise RedisUnavailable
    raw = shared.lookup_read(key)
    return None if raw is None else pickle.loads(raw)  # noqa: S301 - written below


# Writes of lookups are best effort: one that cannot reach Redis is covered by the new
# epoch that ends the outage.


def _lookup_write(operation: str, argument: object, items: dict[str, object]) -> None:
    shared = _shared()
    if shared is None:
        return
    pairs = [part for key, value in items.items() for part in (key, pickle.dumps(value))]
    with contextlib.suppress(RedisUnavailable):
        shared.lookup_write(operation, argument, pairs)


def lookup_add(key: str, value: object, timeout: int) -> None:
    """Caches a lookup for `timeout` seconds unless something is there already."""
    _lookup_write("add", timeout, {key: value})


def lookup_set_many(values: dict[str, object], timeout: int) -> None:
    _lookup_write("set", timeout, values)


def lookup_delete_unless(key: str, value: object) -> None:
    """Drops a cached lookup unless it holds `value`, atomically."""
    _lookup_write("keep", pickle.dumps(value), {key: None})


def redis_state() -> str:
    """ "ok", "unreachable", or "absent" when no Redis is configured (development)."""
    shared = _shared()
    if shared is None:
        return "absent"
    return "ok" if shared.reachable() else "unreachable"


# KEYS[1] the counter; ARGV[1] its value before the step when it is missing, ARGV[2] its
# lifetime in seconds, ARGV[3] the step. Django's add, then its incr, as one command.
_ADD_THEN_INCR = """
redis.call('set', KEYS[1], ARGV[1], 'NX', 'EX', ARGV[2])
return redis.call('incrby', KEYS[1], ARGV[3])
"""


class RateLimitCache(SharedCache):
    """The cache django-ratelimit counts in (RATELIMIT_USE_CACHE): a count in one round trip.

    django-ratelimit counts with two calls: `add(key, 1, lifetime)`, and when that
    answers False (the counter exists) `incr(key)`: two round trips to Redis, which took
    a counted request from 1.29 to 1.59 times an uncounted one (bench/auth.py). Here
    `add` of a positive int with a lifetime sends nothing: it answers False and leaves
    its key, value and lifetime to this thread's next `incr` of that key, which starts
    the counter if it is missing and counts, in one script. Redis then holds what
    Django's add and incr would have left, and django-ratelimit gets the same count;
    only add's answer differs where the counter was missing, and django-ratelimit reads
    both answers the same way. Any other add (django-ratelimit's add of 0 before reading
    a count without counting) is Django's.
    """

    def __init__(self, server: str, params: dict) -> None:
        super().__init__(server, params)
        self._add_then_incr = self.client.register_script(_ADD_THEN_INCR)
        self._pending = threading.local()

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        if type(value) is not int or value < 1 or type(timeout) is not int or timeout <= 0:
            return super().add(key, value, timeout, version=version)
        name = self.make_and_validate_key(key, version=version)
        self._pending.add = (name, value, timeout)
        return False

    def incr(self, key, delta=1, version=None):
        name = self.make_and_validate_key(key, version=version)
        pending, self._pending.add = getattr(self._pending, "add", None), None
        if pending is None or pending[0] != name:
            return super().incr(key, delta, version=version)
        _, value, timeout = pending
        try:
            return self._ask(
                lambda: self._add_then_incr(keys=[name], args=[value - delta, timeout, delta])
            )
        except RedisUnavailable:
            self.local.add(key, value - delta, timeout, version=version)
            return self.local.incr(key, delta, version=version)
