"""An MCP server for AI agents: a client of the public API (/v1/public) over HTTP.

Nothing here reads the database or imports the Django apps: every tool call is one or
more requests to the API, so authentication, scopes, rate limits, download quotas and
the recorded source are the API's own. docs/mcp.md says how agents configure it.
"""
