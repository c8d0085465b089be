import pytest
from django.test import RequestFactory

from config.api.client_ip import client_ip


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
