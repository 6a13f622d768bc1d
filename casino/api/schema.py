"""OpenAPI customisation: component names, and the problem responses every operation documents."""

from drf_spectacular.openapi import AutoSchema as _AutoSchema

PROBLEM_SCHEMA = {
    "type": "object",
    "description": "RFC 9457 problem details.",
    "properties": {
        "type": {"type": "string", "format": "uri"},
        "title": {"type": "string"},
        "status": {"type": "integer"},
        "detail": {"type": "string"},
        "errors": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"field": {"type": "string"}, "message": {"type": "string"}},
                "required": ["field", "message"],
            },
        },
    },
    "required": ["type", "title", "status", "detail"],
}

COMMON_PROBLEMS = {
    "400": "Invalid input; `errors` names each field.",
    "401": "Missing or invalid credentials.",
    "403": "The caller's role does not allow this.",
    "404": "No such resource for this caller.",
    "405": "Method not allowed.",
    "406": "Not acceptable.",
    "409": "Conflicts with the current state (or the same Idempotency-Key is in flight).",
    "415": "Unsupported media type.",
    "422": "Idempotency-Key reused with a different request, or a rule forbids it.",
    "429": "Rate limited; see Retry-After.",
    "503": "A dependency (database) is unreachable; nothing was changed.",
}


def add_problem_responses(result, generator, request, public):
    result.setdefault("components", {}).setdefault("schemas", {})["Problem"] = PROBLEM_SCHEMA
    ref = {"$ref": "#/components/schemas/Problem"}
    for path_item in result.get("paths", {}).values():
        for operation in path_item.values():
            responses = operation.setdefault("responses", {})
            for code, description in COMMON_PROBLEMS.items():
                responses.setdefault(
                    code,
                    {
                        "description": description,
                        "content": {"application/problem+json": {"schema": ref}},
                    },
                )
    return result


class AutoSchema(_AutoSchema):
    """Names nested ``InputSerializer``/``OutputSerializer`` classes after their view.

    The style guide nests serializers in their view; without this every one of them would be
    the component "Input" or "Output" and collide.
    """

    def _get_serializer_name(self, serializer, direction, *args, **kwargs):
        name = super()._get_serializer_name(serializer, direction, *args, **kwargs)
        qualname = type(serializer).__qualname__
        if "." in qualname and not getattr(getattr(serializer, "Meta", None), "ref_name", None):
            owner = qualname.rsplit(".", 1)[0].replace(".", "")
            owner = owner.removesuffix("View")
            name = owner + name
        return name
