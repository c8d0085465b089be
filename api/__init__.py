"""The public API's HTTP plumbing, shared by every app's endpoints under /v1/public.

The one error type and exception handler with the generic error codes (`errors.py`),
the /v1/public middleware (`middleware.py`), CORS (`cors.py`), compression
(`compression.py`, reading weighted headers with `http.py`), the client address
(`client_ip.py`), JSON bodies (`parsers.py`), input serializers (`inputs.py`),
pagination, timestamps, JSON-only negotiation, output serializers applied to the rows
PostgreSQL builds (`rows.py`), OpenAPI helpers (`schema.py`) and the views of the
document itself (`views.py`). It imports no app (import-linter, pyproject.toml).
"""
