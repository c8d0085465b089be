"""The Redis cache's one-round-trip increment, against the real Redis."""

import pytest
from django.core.cache import cache
from redis import Redis


@pytest.fixture(autouse=True)
def _real_redis(settings):
    assert settings.CACHES["default"]["BACKEND"] == "config.cache.RedisCache"


def _ttl(key: str) -> int:
    return Redis.from_url(cache._servers[0]).ttl(cache.make_and_validate_key(key))


def test_it_increments_a_present_key_and_keeps_its_expiry():
    cache.add("count", 1, 60)

    assert cache.incr("count") == 2
    assert cache.incr("count", 5) == 7
    assert cache.get("count") == 7
    assert 0 < _ttl("count") <= 60


def test_it_refuses_to_increment_a_missing_key_without_creating_it():
    with pytest.raises(ValueError, match="not found"):
        cache.incr("missing")

    assert cache.get("missing") is None


def test_it_keeps_one_redis_client_per_connection_pool():
    client = cache._cache.get_client("a", write=True)

    assert cache._cache.get_client("b", write=True) is client
    assert client.ping()
