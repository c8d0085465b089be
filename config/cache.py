"""Django's Redis cache, tuned for the one thing every API request does with it.

Every request under /v1/public is counted here (django-ratelimit: an add, then an
increment), so two costs of Django's client matter:

* it builds a new redis-py client object for every operation, and redis-py's
  constructor fills a table of a few hundred response callbacks: most of the time
  a count took (bench/auth.py). A client is thread-safe over its connection pool,
  so one per pool is kept;
* its increment asks EXISTS, then INCRBY: two round trips, and a key that expires
  between the two is recreated by INCRBY without an expiry. One Lua script does
  both, atomically.
"""

from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient as DjangoRedisCacheClient
from django.utils.functional import cached_property

_INCREMENT_IF_PRESENT = """
if redis.call('exists', KEYS[1]) == 1 then
  return redis.call('incrby', KEYS[1], ARGV[1])
end
return false
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
