"""OpenAPI customisation: component names, and per operation a summary, the roles allowed
and the credential scope, and the problem responses that operation can give."""

import re

from drf_spectacular.openapi import AutoSchema as _AutoSchema
from drf_spectacular.plumbing import force_instance, get_doc

from casino.api.idempotency import HEADER as IDEMPOTENCY_HEADER
from casino.api.problems import generic_problem, problem_type_url
from casino.api.roles import DEALER_DEVICE, OPERATOR_INTEGRATION, ROLE_PERMISSIONS
from casino.api.scopes import required_scope

PROBLEM_SCHEMA = {
    "type": "object",
    "description": "RFC 9457 problem details.",
    "properties": {
        "type": {
            "type": "string",
            "format": "uri-reference",
            "description": "The problem type's page (`/api/v1/problems/<code>`): what it "
            "means and what to do.",
        },
        "title": {"type": "string"},
        "status": {"type": "integer"},
        "detail": {"type": "string"},
        "code": {"type": "string", "description": "The machine code of the problem type."},
        "param": {
            "type": "string",
            "description": "The body field, query parameter or header at fault, when one is.",
        },
        "request_id": {
            "type": "string",
            "description": "The request's id (the X-Request-ID header): quote it to support.",
        },
        "errors": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"field": {"type": "string"}, "message": {"type": "string"}},
                "required": ["field", "message"],
            },
        },
    },
    "required": ["type", "title", "status", "detail", "code"],
}

GUIDE_PATH = "/api/v1/docs/guide/"


def add_problem_responses(result, generator, request, public):
    """The Problem component the operations' problem responses refer to (each operation lists
    its own: ``AutoSchema.get_operation``), and the link to the operator guide."""
    result.setdefault("components", {}).setdefault("schemas", {})["Problem"] = PROBLEM_SCHEMA
    info = result.setdefault("info", {})
    guide = f"Getting started as an operator: [the operator guide]({GUIDE_PATH})."
    if guide not in info.get("description", ""):
        info["description"] = f"{info.get('description', '')}\n\n{guide}".strip()
    return result


def allowed_roles(view, method: str) -> list[str]:
    """The roles whose permissions cover what ``view`` requires for ``method`` (the same rule
    as ``casino.api.permissions.RolePermission``, read from ``roles.ROLE_PERMISSIONS``)."""
    needed = getattr(view, "required_permissions", {}).get(method)
    if needed is None:
        return []
    needed = {needed} if isinstance(needed, str) else set(needed)
    return [role for role, perms in ROLE_PERMISSIONS.items() if needed <= set(perms)]


_CREDENTIAL_ROLES = {OPERATOR_INTEGRATION: "an operator's API key", DEALER_DEVICE: "a device token"}


def access_text(view, method: str) -> str:
    """The description's "Allowed roles" line: who may call, with which credential scope."""
    if getattr(view, "public", False):
        return "**Allowed roles:** public (no credentials)."
    allowed = allowed_roles(view, method)
    if not allowed:
        return "**Allowed roles:** none (superusers only)."
    names = [f"`{r}` ({_CREDENTIAL_ROLES[r]})" if r in _CREDENTIAL_ROLES else f"`{r}`"
             for r in allowed]  # fmt: skip
    text = f"**Allowed roles:** {', '.join(names)}."
    if any(r in _CREDENTIAL_ROLES for r in allowed):
        scope = required_scope(view, method)
        scope_text = f"`{scope}`" if scope else "none declared (refused)"
        text += f" **Credential scope:** {scope_text} (staff sessions need none)."
    return text


def _problem_statuses(operation: dict, *, method: str, public: bool, body_ids: bool) -> list[int]:
    """``body_ids``: the request body names objects by id (a missing one is a 404)."""
    params = operation.get("parameters", [])
    has_body = "requestBody" in operation
    has_query = any(p.get("in") == "query" for p in params)
    path_id = any(p.get("in") == "path" for p in params)
    idempotent = any(p.get("name") == IDEMPOTENCY_HEADER for p in params)
    changes = method not in ("GET", "HEAD", "OPTIONS")
    statuses = []
    if has_body or has_query or idempotent:
        statuses.append(400)
    if not public:
        statuses += [401, 403]
    if path_id or body_ids:
        statuses.append(404)
    if changes:
        statuses.append(409)  # the state forbids it (a duplicate, a phase), or a key in flight
    if has_body:
        statuses.append(415)
    if changes and (path_id or idempotent):
        statuses.append(422)  # a rule forbids it, or the key was used for another request
    if not public:
        statuses.append(429)
    statuses.append(503)
    return statuses


def _problem_example(status: int, operation: dict, path: str, fields: list[str]) -> dict:
    """An example of the generic problem type of ``status`` (casino.api.problems' registry)."""
    problem = generic_problem(status)
    example = {
        "type": problem_type_url(problem.code),
        "title": problem.title,
        "status": status,
        "code": problem.code,
    }
    if status == 400:
        field = (fields or [_first_query(operation)])[0]
        example["detail"] = f"Invalid input: {field}."
        example["param"] = field
        example["errors"] = [{"field": field, "message": "This field is required."}]
    elif status == 404:
        example["detail"] = f"Not found: {path} (or not visible to this caller)."
    elif status == 403:
        example["detail"] = "Your role does not allow this operation."
    else:
        example["detail"] = problem.description
    example["request_id"] = "8f14e45fceea167a5a36dedd4bea2543"
    return example


def _first_query(operation: dict) -> str:
    """The first query parameter's name, else (an operation whose only input is its
    Idempotency-Key header) the header's."""
    params = operation.get("parameters", [])
    return next((p["name"] for p in params if p.get("in") == "query"), IDEMPOTENCY_HEADER)


class AutoSchema(_AutoSchema):
    """Names nested ``InputSerializer``/``OutputSerializer`` classes after their view, and
    documents each operation's summary, allowed roles and credential scope, and its own
    problem responses (with an example each).

    The style guide nests serializers in their view; without this every one of them would be
    the component "Input" or "Output" and collide.
    """

    def get_summary(self):
        listing = self.method == "GET" and self._is_list_view()
        return (
            super().get_summary()
            or self._doc_summary()
            or _summary(self.method, self.path, listing=listing)
        )

    def _doc_summary(self) -> str | None:
        """The first sentence of the method's docstring, or of the view's when the view offers
        this one method only (a short one: a summary is a line)."""
        doc = get_doc(getattr(self.view, self.method.lower(), None))
        offered = [m for m in ("get", "post", "put", "patch", "delete") if hasattr(self.view, m)]
        if not doc and offered == [self.method.lower()]:
            doc = get_doc(type(self.view))
        sentence = re.split(r"(?<=[a-z)])\.(?:\s|$)|\n\n", doc or "", maxsplit=1)[0]
        sentence = " ".join(sentence.split()).rstrip(".")
        return sentence if 0 < len(sentence) <= 80 else None

    def get_description(self):
        doc = super().get_description() or ""
        return f"{doc}\n\n{access_text(self.view, self.method)}".strip()

    def get_operation(self, *args, **kwargs):
        operation = super().get_operation(*args, **kwargs)
        if operation is None:
            return operation
        public = bool(getattr(self.view, "public", False))
        responses = operation.setdefault("responses", {})
        ref = {"$ref": "#/components/schemas/Problem"}
        fields = self._request_fields()
        body_ids = any(name == "id" or name.endswith("_id") for name in fields)
        statuses = _problem_statuses(
            operation, method=self.method, public=public, body_ids=body_ids
        )
        for status in statuses:
            example = _problem_example(status, operation, self.path, fields)
            responses.setdefault(
                str(status),
                {
                    "description": generic_problem(status).description,
                    "content": {"application/problem+json": {"schema": ref, "example": example}},
                },
            )
        return operation

    def _request_fields(self) -> list[str]:
        """The names of the JSON body's fields (none for a read)."""
        if self.method in ("GET", "HEAD", "OPTIONS", "DELETE"):
            return []
        serializer = force_instance(self.get_request_serializer())
        return list(getattr(serializer, "fields", {}))

    def _get_serializer_name(self, serializer, direction, *args, **kwargs):
        name = super()._get_serializer_name(serializer, direction, *args, **kwargs)
        qualname = type(serializer).__qualname__
        if "." in qualname and not getattr(getattr(serializer, "Meta", None), "ref_name", None):
            owner = qualname.rsplit(".", 1)[0].replace(".", "")
            owner = owner.removesuffix("View")
            name = owner + name
        return name


def _singular(word: str) -> str:
    if word.endswith("ies"):
        return word[:-3] + "y"
    if word.endswith(("sses", "xes")):
        return word[:-2]
    return word[:-1] if word.endswith("s") and not word.endswith("ss") else word


def _summary(method: str, path: str, *, listing: bool) -> str:
    """A summary from the method and the path, for operations whose view gives none:
    ``GET /wallets/`` "List wallets", ``GET /wallets/{id}/`` "Get wallet", ``POST /wallets/``
    "Create wallet", ``POST /rounds/{id}/cards/`` "Round: cards"."""
    parts = [p for p in path.removeprefix("/api/v1").strip("/").split("/") if p]
    words = [p.replace("-", " ").replace("_", " ") for p in parts]
    ends_with_id = bool(parts) and parts[-1].startswith("{")
    static = [w for w, p in zip(words, parts, strict=True) if not p.startswith("{")]
    if not static:
        return method.title()
    last = static[-1]
    owner = _singular(static[-2]) if len(static) > 1 else ""
    if ends_with_id:
        noun = _singular(last)
        verb = {"GET": "Get", "PUT": "Replace", "PATCH": "Update", "DELETE": "Delete"}
        return f"{verb.get(method, method.title())} {noun}"
    has_id = any(p.startswith("{") for p in parts)
    if method == "GET" and has_id and owner:
        return f"{owner.capitalize()}: {last}"
    if method == "GET":
        return f"{'List' if listing else 'Get'} {' '.join(static)}"
    if method == "POST" and not has_id:
        return f"Create {_singular(' '.join(static))}"
    if method == "PUT" and not has_id:
        return f"Set {' '.join(static)}"
    if has_id and owner:
        return f"{owner.capitalize()}: {last}" + ("" if method == "POST" else f" ({method})")
    return f"{method.title()} {' '.join(static)}"
