"""The shared cache against real Redis servers: one-round-trip counts, lookups, and how a
process gets on while Redis is away (config/cache.py)."""

import logging
import time

import pytest
from django.core.cache import cache

from config.cache import (
    RETRY_SECONDS,
    WARNING_SECONDS,
    RedisUnavailable,
    count_and_get,
    hash_read,
    hash_write,
    local_count,
    lookup_add,
    lookup_get,
    lookup_set_many,
)
from tests.reliability.servers import RedisServer


@pytest.fixture
def own_redis(settings, redis_server: RedisServer) -> RedisServer:
    """The cache on a redis-server of this test's own."""
    settings.CACHES = {
        "default": {**settings.CACHES["default"], "LOCATION": redis_server.url},
    }
    return redis_server


@pytest.fixture
def clock(monkeypatch):
    """Moves time.monotonic(), which the cache's retry interval and warnings follow."""
    real = time.monotonic
    offset = [0.0]
    monkeypatch.setattr(time, "monotonic", lambda: real() + offset[0])

    def advance(seconds: float) -> None:
        offset[0] += seconds

    return advance


def test_it_counts_and_reads_a_lookup_along_in_one_call():
    lookup_add("token:a", ("row",), 60)

    assert count_and_get("rate:x", timeout=60, key="token:a") == (1, ("row",))
    assert count_and_get("rate:x", timeout=60) == (2, None)
    assert count_and_get("rate:x", timeout=60, increment=False) == (2, None)


def test_it_gives_a_counter_its_lifetime_at_the_first_count():
    count_and_get("rate:y", timeout=65)

    keys = cache.client.keys("*rate:y")
    assert len(keys) == 1
    assert 60 < cache.client.ttl(keys[0]) <= 65


def test_it_adds_a_lookup_only_where_there_is_none():
    lookup_set_many({"token:b": "changed"}, 30)

    lookup_add("token:b", ("row",), 60)

    assert lookup_get("token:b") == "changed"


def test_it_keeps_a_map_as_a_hash_and_reads_some_fields_and_a_key_along():
    cache.set("generation", "g1")
    hash_write("map", {"": "g1", "acme.es": "acme", "nandu.es": "nandu"}, timeout=60)

    assert hash_read("map", ["", "acme.es", "other.es"], along="generation") == (
        ["g1", "acme", None],
        "g1",
    )
    (key,) = cache.client.keys("*:map")
    assert cache.client.type(key) == b"hash"
    assert 55 < cache.client.ttl(key) <= 60


def test_it_replaces_a_map_whole():
    hash_write("map", {"acme.es": "acme", "old.es": "old"}, timeout=60)
    hash_write("map", {"acme.es": "acme-2"}, timeout=60)

    assert hash_read("map", ["acme.es", "old.es"], along="none") == (["acme-2", None], None)


def test_it_keeps_a_map_in_process_memory_while_redis_is_unreachable(own_redis):
    own_redis.stop()
    cache.set("generation", "g2")
    hash_write("map", {"": "g2", "acme.es": "acme"}, timeout=60)

    assert hash_read("map", ["", "acme.es", "other.es"], along="generation") == (
        ["g2", "acme", None],
        "g2",
    )


def test_it_serves_djangos_cache_from_process_memory_while_redis_is_unreachable(own_redis):
    cache.set("domains", ["a.es"], 60)
    own_redis.stop()

    missing_while_down = cache.get("domains")
    cache.set("domains", ["b.es"], 60)

    assert missing_while_down is None
    assert cache.get("domains") == ["b.es"]


def test_it_counts_in_process_memory_while_redis_is_unreachable(own_redis):
    own_redis.stop()

    with pytest.raises(RedisUnavailable):
        count_and_get("rate:z", timeout=60)
    counts = [local_count("rate:z", timeout=60) for _ in range(3)]

    assert counts == [1, 2, 3]
    assert local_count("rate:z", timeout=60, increment=False) == 3


def test_it_leaves_redis_alone_until_the_retry_interval_has_passed(own_redis, clock):
    port = own_redis.port
    own_redis.stop()
    with pytest.raises(RedisUnavailable):
        count_and_get("rate:w", timeout=60)
    own_redis.start()
    assert own_redis.port == port

    with pytest.raises(RedisUnavailable):
        count_and_get("rate:w", timeout=60)  # not asked: the interval has not passed
    clock(RETRY_SECONDS)

    assert count_and_get("rate:w", timeout=60) == (1, None)


def test_it_warns_once_a_minute_and_says_when_redis_is_back(own_redis, clock, caplog):
    own_redis.stop()
    with caplog.at_level(logging.WARNING, logger="config.cache"):
        for _ in range(int(WARNING_SECONDS // RETRY_SECONDS) - 1):
            with pytest.raises(RedisUnavailable):
                count_and_get("rate:v", timeout=60)
            clock(RETRY_SECONDS)
        within_the_minute = len(caplog.records)
        clock(RETRY_SECONDS)
        with pytest.raises(RedisUnavailable):
            count_and_get("rate:v", timeout=60)
        a_minute_on = len(caplog.records)
        own_redis.start()
        clock(RETRY_SECONDS)
        count_and_get("rate:v", timeout=60)

    assert within_the_minute == 1
    assert a_minute_on == 2
    assert "Redis is unreachable" in caplog.records[0].getMessage()
    assert "Redis answers again after" in caplog.records[-1].getMessage()


def test_it_reads_no_lookup_cached_before_an_outage_from_a_redis_that_kept_it(own_redis, clock):
    lookup_add("token:c", ("row before the revocation",), 300)
    with own_redis.paused():
        with pytest.raises(RedisUnavailable):
            lookup_get("token:c")  # times out
        lookup_set_many({"token:c": "changed"}, 30)  # the tombstone is lost
    clock(RETRY_SECONDS)

    assert lookup_get("token:c") is None
    assert count_and_get("rate:u", timeout=60, key="token:c") == (1, None)
