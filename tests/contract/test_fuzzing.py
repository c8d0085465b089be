"""Schemathesis against the served document: every check, anonymous and with a token."""

import hypothesis
import pytest
import schemathesis
from django.core.wsgi import get_wsgi_application
from schemathesis.config import SchemathesisConfig

from accounts.models import Scope
from tests.factories import token_for

EXAMPLES = 10

CONFIG_DATA = {
    "generation": {"max-examples": EXAMPLES, "deterministic": True, "database": "none"},
    "operations": [
        {
            # RFC 8628: a well-formed device code that is unknown, or not yet approved,
            # is refused with 400 (invalid_grant, authorization_pending), as the
            # contract says; no schema can tell a live code from a made-up one.
            "include-operation-id": "exchangeDeviceCode",
            "checks": {"positive_data_acceptance": {"expected-statuses": ["2xx", "400", "429"]}},
        },
        {
            # "companyName: required when companySlug is not given". The document
            # cannot say so for a multipart body that the generated client can still
            # send (openapi-python-client drops a multipart body made of anyOf
            # shapes), so that one 400 is allowed to a schema-valid body.
            "include-operation-id": "createProposal",
            "checks": {
                "positive_data_acceptance": {
                    "expected-statuses": ["2xx", "400", "401", "403", "404", "429"]
                }
            },
        },
    ],
}
CONFIG = SchemathesisConfig.from_dict(CONFIG_DATA)

# Loaded at collection, from the app itself: the document is built from code alone.
schema = schemathesis.openapi.from_wsgi(
    "/v1/public/openapi.json", get_wsgi_application(), config=CONFIG
)

pytestmark = pytest.mark.django_db

# The database, the token and the catalogue are shared by the examples of one operation
# on purpose: each example sees what the ones before it left, as a client would.
FUZZ = hypothesis.settings(
    deadline=None, suppress_health_check=[hypothesis.HealthCheck.function_scoped_fixture]
)


@pytest.fixture(autouse=True)
def _unthrottled(settings, catalogue, wsgi_in_test_transaction):
    # The fuzzer sends hundreds of requests a minute from one address; the limits
    # themselves are tested in tests/accounts/test_rate_limits.py.
    settings.API_RATE_ANONYMOUS = settings.API_RATE_AUTHENTICATED = "1000000/m"
    settings.API_RATE_IMAGES_ANONYMOUS = "1000000/m"
    # Sent straight to the WSGI app, a compressed answer would reach the checks as it
    # left the app, undecoded; compression is tested in tests/api/test_compression.py.
    settings.COMPRESS_MIN_BYTES = 2**62


@schema.parametrize()
@FUZZ
def test_it_answers_anonymous_requests_as_documented(case):
    case.call_and_validate()


@schema.parametrize()
@FUZZ
def test_it_answers_a_token_of_every_scope_as_documented(case, every_scope_token):
    case.call_and_validate(headers={"Authorization": f"Bearer {every_scope_token}"})


@pytest.fixture(params=Scope.values)
def one_scope_token(request, pro_user) -> str:
    return token_for(pro_user, scopes=[request.param], name=request.param)


# Fewer cases per scope: what differs from the token of every scope is the refusal.
per_scope = schemathesis.openapi.from_wsgi(
    "/v1/public/openapi.json",
    get_wsgi_application(),
    config=SchemathesisConfig.from_dict(
        {
            **CONFIG_DATA,
            "generation": {**CONFIG_DATA["generation"], "max-examples": 3},
            "phases": {"coverage": {"enabled": False}},
        }
    ),
)


@per_scope.parametrize()
@FUZZ
def test_it_answers_a_token_of_one_scope_as_documented(case, one_scope_token):
    # The scopes it lacks must be refused in the documented way (403 INSUFFICIENT_SCOPE).
    case.call_and_validate(headers={"Authorization": f"Bearer {one_scope_token}"})


def test_it_keeps_resources_consistent_across_calls(every_scope_token):
    """Stateful: chains calls along the links Schemathesis infers from the document
    (create a palette, then read, change and delete it; a search, then a detail), with
    use_after_free and ensure_resource_availability among the checks."""
    workflow = schema.as_state_machine()

    headers = {"Authorization": f"Bearer {every_scope_token}"}

    class SignedIn(workflow):
        def get_call_kwargs(self, case):
            return {"headers": headers}

        def validate_response(self, response, case, additional_checks=None, **kwargs):
            # As call_and_validate does: the checks must know the token was sent on
            # purpose, or ignored_auth takes it for a generated, invalid one.
            case.validate_response(
                response,
                additional_checks=additional_checks,
                headers=headers,
                transport_kwargs=kwargs,
                recorder=self.recorder,
            )

    SignedIn.run(
        settings=hypothesis.settings(
            max_examples=EXAMPLES,
            stateful_step_count=10,
            deadline=None,
            derandomize=True,
            database=None,
        )
    )
