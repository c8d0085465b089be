"""The cache django-ratelimit counts in (common/cache.py's RateLimitCache), against a
redis-server of the test's own: the same counts as Django's Redis cache, one command each."""

import pytest
import redis
from django.conf import settings
from django.core.cache import caches
from django_ratelimit.core import get_usage

from tests.reliability.servers import RedisServer


@pytest.fixture
def counters(settings, redis_server: RedisServer) -> redis.Redis:
    """Both caches on a redis-server of this test's own; its client, to look inside."""
    settings.CACHES = {
        alias: {**cache, "LOCATION": redis_server.url} for alias, cache in settings.CACHES.items()
    }
    settings.RATELIMIT_ENABLE = True
    return redis.Redis.from_url(redis_server.url)


def count(subject: str, *, rate: str = "100/m", increment: bool = True) -> dict:
    return get_usage(
        None, group="test", key=lambda _group, _request: subject, rate=rate, increment=increment
    )


def test_it_counts_from_one_in_one_command_a_count(counters):
    count("warm-up")  # loads the script into Redis
    marker = redis.Redis.from_url(settings.CACHES["ratelimit"]["LOCATION"])
    marker.ping()  # connected before the monitor starts: only its ECHO shows
    with counters.monitor() as monitor:
        counts = [count("caller")["count"] for _ in range(3)]
        marker.echo("done")
        sent = []  # by clients, not by the scripts they run
        while (command := monitor.next_command())["command"] != "ECHO done":
            if command["client_type"] != "lua":
                sent.append(command["command"].split()[0].upper())

    assert counts == [1, 2, 3]
    assert sent == ["EVALSHA"] * 3


def test_it_gives_a_new_counter_the_lifetime_of_its_window(counters):
    count("caller", rate="5/15m")

    (key,) = counters.keys("*rl:*")
    assert 15 * 60 < counters.ttl(key) <= 15 * 60 + 60
    assert caches["ratelimit"].get(key.decode().split(":", 2)[2]) == 1


def test_it_reads_a_count_without_counting(counters):
    assert count("caller", increment=False)["count"] == 0
    count("caller")

    assert [count("caller", increment=False)["count"] for _ in range(2)] == [1, 1]


def test_it_keeps_djangos_add_for_anything_but_a_count(counters):
    cache = caches["ratelimit"]

    assert cache.add("name", "text", 60)
    assert not cache.add("name", "other", 60)
    assert cache.add("forever", 1, None)
    assert cache.get("name") == "text"
    with pytest.raises(ValueError, match="not found"):
        cache.incr("missing")


def test_it_counts_in_process_memory_while_redis_is_unreachable(counters, redis_server):
    count("caller")
    redis_server.stop()

    assert [count("caller")["count"] for _ in range(3)] == [1, 2, 3]
    assert count("caller", increment=False)["count"] == 3
