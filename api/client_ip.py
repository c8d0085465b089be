"""Who is calling, by address: the one place that reads X-Forwarded-For.

Every limit keyed by address (request rates, the anonymous download quota, the device
page's wrong codes) is keyed by what client_ip returns, so each client has one key
however its address is spelled: IPv4 in dotted decimal, an IPv4-mapped IPv6 address as
the IPv4 one, and IPv6 by its /64 network (one household or server gets a whole /64,
and every address in it would otherwise be a bucket of its own), written compressed in
lower case, as the network's first address.
"""

import ipaddress

from django.conf import settings
from django.http import HttpRequest

IPV6_PREFIX = 64


def address_key(text: str) -> str | None:
    """The key of an address as a client or proxy wrote it, or None when it is not one.

    A port ("192.0.2.1:443", "[2001:db8::1]:443") and a zone ("fe80::1%eth0") are
    dropped; anything else that is not an IPv4 or IPv6 address is not an address.
    """
    text = text.strip()
    if text.startswith("["):
        text = text[1:].partition("]")[0]
    elif text.count(":") == 1:
        text = text.partition(":")[0]
    try:
        address = ipaddress.ip_address(text.partition("%")[0])
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        network = ipaddress.IPv6Network((address, IPV6_PREFIX), strict=False)
        return str(network.network_address)
    return str(address)


def client_ip(request: HttpRequest) -> str:
    """The key of the socket address, or with TRUSTED_PROXY_COUNT = N of the Nth address
    from the right of X-Forwarded-For: each trusted proxy appends the address it received
    from, so the entries left of that one are whatever the client chose to send. A
    forwarded entry that is not an address is ignored for the socket's."""
    remote = request.META.get("REMOTE_ADDR", "")
    connecting = address_key(remote) or remote
    trusted = settings.TRUSTED_PROXY_COUNT
    if trusted == 0:
        return connecting
    forwarded = [part.strip() for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    forwarded = [part for part in forwarded if part]
    # Fewer entries than proxies: the request did not come through all of them.
    if len(forwarded) < trusted:
        return connecting
    return address_key(forwarded[-trusted]) or connecting
