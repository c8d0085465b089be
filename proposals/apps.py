from django.apps import AppConfig

from proposals.errors import ProposalErrorCode


class ProposalsConfig(AppConfig):
    name = "proposals"
    default_auto_field = "django.db.models.BigAutoField"
    # Beside the API's generic codes (api.errors.error_codes).
    error_codes = ProposalErrorCode
