"""Which token an endpoint needs, declared on the view and checked in one place.

A view says `token_required = True` when anonymous calls are refused, and
`required_scopes = {"GET": Scope.READ_LOGOS, ...}` for the scope a token must
carry per method. Anonymous calls to endpoints that allow them need no scope.
"""

from rest_framework.permissions import BasePermission

from api.errors import insufficient_scope, token_missing


def required_scope(view, method: str) -> str | None:
    scopes = getattr(view, "required_scopes", {})
    return scopes.get("GET" if method == "HEAD" else method)


def token_required(view) -> bool:
    return getattr(view, "token_required", False)


class TokenScopes(BasePermission):
    def has_permission(self, request, view) -> bool:
        token = request.auth
        if token is None:
            if token_required(view):
                raise token_missing()
            return True
        scope = required_scope(view, request.method)
        if scope is not None and scope not in token.scopes:
            raise insufficient_scope(scope)
        return True
