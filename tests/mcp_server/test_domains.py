"""lookup_domain's reading of what an agent pastes, and its copy of the domain list."""

import anyio
import httpx2
import pytest

from mcp_server.api import Api, Caller
from mcp_server.domains import DomainList, candidates, normalise
from tests.factories import DomainFactory

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize(
    ("pasted", "host"),
    [
        ("acme.es", "acme.es"),
        ("ACME.ES", "acme.es"),
        ("www.acme.es", "acme.es"),
        ("acme.es.", "acme.es"),
        ("  https://WWW.Acme.es./contacto?x=1#top ", "acme.es"),
        ("http://user:secret@tienda.acme.es:8443/", "tienda.acme.es"),
        ("acme.es/sobre-nosotros", "acme.es"),
        ("wwwacme.es", "wwwacme.es"),
        ("", None),
        ("https://", None),
    ],
)
def test_it_reads_the_host_of_whatever_is_pasted(pasted, host):
    assert normalise(pasted) == host


def test_it_tries_parent_domains_down_to_two_labels():
    assert candidates("a.tienda.acme.es") == ["a.tienda.acme.es", "tienda.acme.es", "acme.es"]
    assert candidates("acme.es") == ["acme.es"]
    assert candidates("localhost") == ["localhost"]


class CountingTransport(httpx2.AsyncHTTPTransport):
    """Real HTTP, with the requests written down."""

    def __init__(self) -> None:
        super().__init__()
        self.sent: list[httpx2.Request] = []
        self.statuses: list[int] = []

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        self.sent.append(request)
        response = await super().handle_async_request(request)
        self.statuses.append(response.status_code)
        return response


def test_it_keeps_the_list_for_its_max_age_then_revalidates_it(app):
    DomainFactory(domain="acme.example")
    transport = CountingTransport()
    api = Api(app.url, transport=transport)
    domains = DomainList(api)

    async def scenario():
        try:
            first, _ = await domains.current(Caller())
            await domains.current(Caller())
            domains.fresh_until = 0  # a day later
            again, generated_at = await domains.current(Caller())
            return first, again, generated_at
        finally:
            await api.aclose()

    first, again, generated_at = anyio.run(scenario)

    assert set(first) == {"acme.example"} and again == first and generated_at
    assert transport.statuses == [200, 304]  # the second call read the copy
    assert transport.sent[1].headers["If-None-Match"] == domains.etag
    assert transport.sent[1].headers["X-Service-Source"] == "MCP"
