import pytest
from django.test import RequestFactory

from api.client_ip import client_ip


def request(remote="10.0.0.9", forwarded=None):
    headers = {"HTTP_X_FORWARDED_FOR": forwarded} if forwarded is not None else {}
    return RequestFactory().get("/", REMOTE_ADDR=remote, **headers)


def test_it_uses_the_socket_address_and_ignores_x_forwarded_for_by_default(settings):
    settings.TRUSTED_PROXY_COUNT = 0

    assert client_ip(request(forwarded="1.2.3.4")) == "10.0.0.9"


@pytest.mark.parametrize(
    ("count", "forwarded", "expected"),
    [
        (1, "198.51.100.7", "198.51.100.7"),
        (1, "6.6.6.6, 198.51.100.7", "198.51.100.7"),  # the client's own entry is not trusted
        (2, "6.6.6.6, 198.51.100.7, 10.1.1.1", "198.51.100.7"),
        (2, "198.51.100.7", "10.0.0.9"),  # shorter than the proxy chain: use the socket
        (1, "", "10.0.0.9"),
        (1, " , ", "10.0.0.9"),
    ],
)
def test_it_takes_the_nth_address_from_the_right_behind_trusted_proxies(
    settings, count, forwarded, expected
):
    settings.TRUSTED_PROXY_COUNT = count

    assert client_ip(request(forwarded=forwarded)) == expected


@pytest.mark.parametrize(
    ("spellings", "key"),
    [
        (
            ["2001:db8:7::1", "2001:db8:7:0:0:0:0:1", "2001:DB8:7::1", "2001:0db8:0007::0001"],
            "2001:db8:7::",
        ),
        (["2001:db8:7::ffff:1", "2001:db8:7:0:abcd::9", "[2001:db8:7::1]:443"], "2001:db8:7::"),
        (["::ffff:192.0.2.1", "::FFFF:c000:201", "192.0.2.1", "192.0.2.1:443"], "192.0.2.1"),
        (["fe80::1%eth0", "FE80::1"], "fe80::"),
    ],
)
def test_it_gives_every_spelling_of_one_address_one_key(settings, spellings, key):
    settings.TRUSTED_PROXY_COUNT = 0

    assert {client_ip(request(remote=spelling)) for spelling in spellings} == {key}


def test_it_groups_ipv6_addresses_by_their_64_bit_network(settings):
    settings.TRUSTED_PROXY_COUNT = 0

    assert client_ip(request(remote="2001:db8:7:1::1")) == "2001:db8:7:1::"
    assert client_ip(request(remote="2001:db8:7:2::1")) == "2001:db8:7:2::"


@pytest.mark.parametrize("forwarded", ["not-an-address", "999.1.1.1", "1.2.3", "2001:db8::g", "x"])
def test_it_ignores_a_forwarded_value_that_is_not_an_address(settings, forwarded):
    settings.TRUSTED_PROXY_COUNT = 1

    assert client_ip(request(forwarded=forwarded)) == "10.0.0.9"


def test_it_keys_a_forwarded_address_like_a_connecting_one(settings):
    settings.TRUSTED_PROXY_COUNT = 1

    assert client_ip(request(forwarded="6.6.6.6, 2001:DB8:7:0:0:0:0:1")) == "2001:db8:7::"
    assert client_ip(request(forwarded="::ffff:198.51.100.7")) == "198.51.100.7"
