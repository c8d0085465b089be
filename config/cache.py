"""Django's Redis cache, tuned for the one thing every API request does with it.

Every request under /v1/public is counted here (accounts/ratelimit.py), and a
token's lookup is cached here too, so three costs of Django's client matter:

* it builds a new redis-py client object for every operation, and redis-py's
  constructor fills a table of a few hundred response callbacks: most of the time
  a count took (bench/auth.py). A client is thread-safe over its connection pool,
  so one per pool is kept;
* its increment asks EXISTS, then INCRBY: two round trips, and a key that expires
  between the two is recreated by INCRBY without an expiry. One Lua script does
  both, atomically;
* a rate-limit count and a cached token lookup are two round trips. One script
  bumps the counter (creating it with its expiry) and reads the cached value.

It also keeps maps too big to read whole for one entry (the domain map: a field per
domain) as Redis hashes, replaced at once (hash_write) and read a few fields at a time
(hash_read); other caches keep them as one dict.
"""

import uuid

from django.core.cache import DEFAULT_CACHE_ALIAS, caches
from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient as DjangoRedisCacheClient
from django.utils.functional import cached_property

_INCREMENT_IF_PRESENT = """
if redis.call('exists', KEYS[1]) == 1 then
  return redis.call('incrby', KEYS[1], ARGV[1])
end
return false
"""

# KEYS[1] the counter, KEYS[2] a key to read along (or the counter again);
# ARGV[1] the counter's lifetime, ARGV[2] 1 to count, 0 to only read.
_COUNT_AND_GET = """
local count
if ARGV[2] == '1' then
  count = redis.call('incr', KEYS[1])
  if count == 1 then redis.call('expire', KEYS[1], ARGV[1]) end
else
  count = tonumber(redis.call('get', KEYS[1]) or '0')
end
return {count, redis.call('get', KEYS[2])}
"""

_DELETE_UNLESS = """
if redis.call('get', KEYS[1]) ~= ARGV[1] then
  return redis.call('del', KEYS[1])
end
return 0
"""


class RedisCacheClient(DjangoRedisCacheClient):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._clients = {}

    def get_client(self, key=None, *, write=False):
        index = self._get_connection_pool_index(write)
        client = self._clients.get(index)
        if client is None:
            client = self._clients[index] = self._client(
                connection_pool=self._get_connection_pool(write)
            )
        return client


class RedisCache(DjangoRedisCache):
    def __init__(self, server, params) -> None:
        super().__init__(server, params)
        self._class = RedisCacheClient

    @cached_property
    def _increment_script(self):
        # A Script runs by its SHA-1 (EVALSHA) and loads itself on a server that lacks it.
        return self._cache.get_client(None, write=True).register_script(_INCREMENT_IF_PRESENT)

    def incr(self, key, delta=1, version=None):
        key = self.make_and_validate_key(key, version=version)
        client = self._cache.get_client(key, write=True)
        value = self._increment_script(keys=[key], args=[delta], client=client)
        if value is None:
            raise ValueError(f"Key '{key}' not found.")
        return value

    @cached_property
    def _count_and_get_script(self):
        return self._cache.get_client(None, write=True).register_script(_COUNT_AND_GET)

    def count_and_get(
        self, counter: str, *, timeout: int, increment: bool = True, key: str | None = None
    ) -> tuple[int, object]:
        counter = self.make_and_validate_key(counter)
        read = self.make_and_validate_key(key) if key is not None else counter
        client = self._cache.get_client(counter, write=True)
        count, raw = self._count_and_get_script(
            keys=[counter, read], args=[timeout, int(increment)], client=client
        )
        if key is None or raw is None:
            return count, None
        return count, self._cache._serializer.loads(raw)

    @cached_property
    def _delete_unless_script(self):
        return self._cache.get_client(None, write=True).register_script(_DELETE_UNLESS)

    def delete_unless(self, key: str, value: object) -> None:
        key = self.make_and_validate_key(key)
        client = self._cache.get_client(key, write=True)
        self._delete_unless_script(
            keys=[key], args=[self._cache._serializer.dumps(value)], client=client
        )

    def hash_read(self, key: str, fields: list[str], *, along: str) -> tuple[list, object]:
        key = self.make_and_validate_key(key)
        along = self.make_and_validate_key(along)
        client = self._cache.get_client(key)
        with client.pipeline(transaction=False) as pipe:
            pipe.hmget(key, fields)
            pipe.get(along)
            values, raw = pipe.execute()
        decoded = [None if value is None else value.decode() for value in values]
        return decoded, None if raw is None else self._cache._serializer.loads(raw)

    def hash_write(self, key: str, mapping: dict[str, str], *, timeout: int) -> None:
        key = self.make_and_validate_key(key)
        # Built under a name of its own and renamed: readers see the old hash or the new
        # one, never half of it, and no single command holds Redis for long.
        building = f"{key}:building:{uuid.uuid4().hex}"
        client = self._cache.get_client(key, write=True)
        items = list(mapping.items())
        with client.pipeline(transaction=False) as pipe:
            for start in range(0, len(items), _HASH_CHUNK):
                pipe.hset(building, mapping=dict(items[start : start + _HASH_CHUNK]))
            pipe.expire(building, timeout)
            pipe.rename(building, key)
            pipe.execute()


# Fields written per HSET when a hash is replaced.
_HASH_CHUNK = 2000


def hash_read(key: str, fields: list[str], *, along: str) -> tuple[list, object]:
    """The values of some fields of a map of the default cache (None for a missing field
    or a missing map) and the value of the key `along`, in one round trip on Redis."""
    cache = caches[DEFAULT_CACHE_ALIAS]
    if isinstance(cache, RedisCache):
        return cache.hash_read(key, fields, along=along)
    values = cache.get_many([key, along])
    mapping = values.get(key) or {}
    return [mapping.get(field) for field in fields], values.get(along)


def hash_write(key: str, mapping: dict[str, str], *, timeout: int) -> None:
    """Replaces a map of the default cache whole; it lives `timeout` seconds."""
    cache = caches[DEFAULT_CACHE_ALIAS]
    if isinstance(cache, RedisCache):
        cache.hash_write(key, mapping, timeout=timeout)
    else:
        cache.set(key, dict(mapping), timeout)


def count_and_get(
    counter: str, *, timeout: int, increment: bool = True, key: str | None = None
) -> tuple[int, object]:
    """Counts one more in a counter of the default cache that lives `timeout` seconds
    from its first count, and reads `key` along: one round trip on Redis, three
    calls on other caches."""
    # The backend itself: django.core.cache.cache is a proxy that isinstance() cannot see through.
    cache = caches[DEFAULT_CACHE_ALIAS]
    if isinstance(cache, RedisCache):
        return cache.count_and_get(counter, timeout=timeout, increment=increment, key=key)
    if increment:
        cache.add(counter, 0, timeout)
        count = cache.incr(counter)
    else:
        count = cache.get(counter, 0)
    return count, cache.get(key) if key is not None else None


def delete_unless(key: str, value: object) -> None:
    """Deletes `key` of the default cache unless it holds `value`, atomically on Redis."""
    cache = caches[DEFAULT_CACHE_ALIAS]
    if isinstance(cache, RedisCache):
        cache.delete_unless(key, value)
    elif cache.get(key) != value:
        cache.delete(key)
