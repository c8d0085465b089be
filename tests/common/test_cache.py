"""The shared cache against real Redis servers: counters, lookups, and how a process gets
on while Redis is away (common/cache.py)."""

import logging
import time

import pytest
from django.core.cache import cache

from common.cache import (
    RETRY_SECONDS,
    WARNING_SECONDS,
    RedisUnavailable,
    hash_read,
    hash_write,
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


def test_it_counts_on_a_counter_that_keeps_the_lifetime_of_its_first_count():
    assert cache.add("rate:y", 1, 65)
    assert not cache.add("rate:y", 1, 65)

    assert [cache.incr("rate:y") for _ in range(2)] == [2, 3]
    assert cache.incr("rate:y", 10) == 13
    assert cache.get("rate:y") == 13
    (key,) = cache.client.keys("*rate:y")
    assert 60 < cache.client.ttl(key) <= 65


def test_it_reads_what_it_added_as_djangos_cache_wrote_it():
    assert cache.add("added", {"plan": "PRO"}, 60)
    cache.set("set", 7, 60)

    assert not cache.add("set", 8, 60)
    assert (cache.get("added"), cache.get("set")) == ({"plan": "PRO"}, 7)
    assert cache.add("forever", 1, None)
    assert cache.client.ttl(cache.make_key("forever")) == -1


def test_it_refuses_to_count_on_a_counter_that_is_not_there():
    with pytest.raises(ValueError, match="not found"):
        cache.incr("rate:none")

    assert cache.client.keys("*rate:none") == []


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

    added = cache.add("rate:z", 1, 60)
    counts = [cache.incr("rate:z") for _ in range(2)]

    assert added
    assert counts == [2, 3]
    assert cache.get("rate:z") == 3


def test_it_leaves_redis_alone_until_the_retry_interval_has_passed(own_redis, clock):
    port = own_redis.port
    own_redis.stop()
    with pytest.raises(RedisUnavailable):
        lookup_get("token:w")
    own_redis.start()
    assert own_redis.port == port

    with pytest.raises(RedisUnavailable):
        lookup_get("token:w")  # not asked: the interval has not passed
    clock(RETRY_SECONDS)

    assert lookup_get("token:w") is None


def test_it_warns_once_a_minute_and_says_when_redis_is_back(own_redis, clock, caplog):
    own_redis.stop()
    with caplog.at_level(logging.WARNING, logger="common.cache"):
        for _ in range(int(WARNING_SECONDS // RETRY_SECONDS) - 1):
            with pytest.raises(RedisUnavailable):
                lookup_get("token:v")
            clock(RETRY_SECONDS)
        within_the_minute = len(caplog.records)
        clock(RETRY_SECONDS)
        with pytest.raises(RedisUnavailable):
            lookup_get("token:v")
        a_minute_on = len(caplog.records)
        own_redis.start()
        clock(RETRY_SECONDS)
        lookup_get("token:v")

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
