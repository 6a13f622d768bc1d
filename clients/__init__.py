"""API clients generated from the OpenAPI schema (``make client``; see clients/README.md)."""
