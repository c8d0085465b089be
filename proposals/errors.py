"""The error codes of the proposal endpoints (the daily limit, the uploaded file),
beside the API's generic ones (api/errors.py). ProposalsConfig declares them, so the
OpenAPI document lists them (api.errors.error_codes)."""

from enum import StrEnum


class ProposalErrorCode(StrEnum):
    PROPOSAL_LIMIT_REACHED = "PROPOSAL_LIMIT_REACHED"
    FILE_TOO_LARGE = "FILE_TOO_LARGE"
    UNSUPPORTED_FILE = "UNSUPPORTED_FILE"
