"""One normalisation of domain names for the import, the admin, the lists and the lookups."""

import pytest

from directory.catalogue.models import (
    domain_and_parents,
    is_domain,
    normalise_domain,
    registered_domain,
)


@pytest.mark.parametrize(
    ("typed", "normal"),
    [
        ("acme.es", "acme.es"),
        ("ACME.Es", "acme.es"),
        ("www.acme.es", "acme.es"),
        ("acme.es.", "acme.es"),
        ("WWW.Acme.ES.", "acme.es"),
        ("  acme.es  ", "acme.es"),
        ("https://www.acme.es/contacto", "acme.es"),
        ("http://acme.es:8080/?q=1#top", "acme.es"),
        ("www.acme.es/contacto", "acme.es"),
        ("https:/www.acme.es/contacto", "acme.es"),  # a proxy folded the two slashes
        ("españa.es", "xn--espaa-rta.es"),
        ("www.ESPAÑA.es", "xn--espaa-rta.es"),
        ("xn--espaa-rta.es", "xn--espaa-rta.es"),
        ("\uff21\uff23\uff2d\uff25\uff0e\uff25\uff33", "acme.es"),  # full-width ACME.ES
        ("www2.acme.es", "www2.acme.es"),
    ],
)
def test_it_brings_every_way_of_writing_a_domain_to_one_form(typed, normal):
    assert normalise_domain(typed) == normal
    assert is_domain(normal)


@pytest.mark.parametrize("typed", ["", "   ", "localhost", "not a domain", "acme", "http://[::1"])
def test_it_gives_nothing_that_passes_as_a_domain_for_other_text(typed):
    assert not is_domain(normalise_domain(typed))


def test_it_finds_the_registered_domain_by_the_public_suffix_list():
    assert registered_domain("tienda.acme.es") == "acme.es"
    assert registered_domain("shop.acme.com.es") == "acme.com.es"
    assert registered_domain("acme.es") == "acme.es"
    assert registered_domain("com.es") is None


def test_it_tries_a_subdomain_then_its_parents_down_to_the_registered_domain():
    assert domain_and_parents("a.b.acme.es") == ["a.b.acme.es", "b.acme.es", "acme.es"]
    assert domain_and_parents("shop.acme.com.es") == ["shop.acme.com.es", "acme.com.es"]
    assert domain_and_parents("acme.es") == ["acme.es"]
    assert domain_and_parents("com.es") == ["com.es"]
