from drf_spectacular.utils import extend_schema
from rest_framework.views import APIView

from config.api.errors import ErrorCode, not_found


@extend_schema(exclude=True)
class UnknownPathApi(APIView):
    """Every path under /v1/public that no endpoint claims: 404 in the envelope."""

    def _unknown(self, request, *args, **kwargs):
        raise not_found(ErrorCode.NOT_FOUND, "No such endpoint.")

    get = post = put = patch = delete = _unknown
