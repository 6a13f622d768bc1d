"""The API reference documents each operation: a summary, the roles allowed (as the database's
role groups grant them) and the credential scope, and only the problems that operation can
give, each with an example; and the operator guide is served from the repository's Markdown."""

import re

import pytest
from django.urls import resolve
from drf_spectacular.generators import SchemaGenerator

from casino.api import roles
from casino.api.guide import GUIDE_FILE
from casino.api.problems import TYPE_BASE
from casino.api.scopes import required_scope

METHODS = {"get", "post", "put", "patch", "delete"}
ALL_ROLES = list(roles.ROLE_PERMISSIONS)


@pytest.fixture(scope="module")
def schema():
    return SchemaGenerator().get_schema(request=None, public=True)


def _operations(schema):
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            if method in METHODS:
                yield path, method.upper(), operation


def _view(path: str):
    concrete = re.sub(r"{event_id}", "evt_" + "0" * 32, path)
    concrete = re.sub(r"{kind}", "dealer", concrete)
    func = resolve(re.sub(r"{\w+}", "1", concrete)).func
    return getattr(func, "cls", None) or func.view_class


def _body_names_ids(schema, operation) -> bool:
    """The JSON body refers to objects by id (``player_id``): one that is missing is a 404."""
    content = operation.get("requestBody", {}).get("content", {}).get("application/json")
    if not content:
        return False
    ref = content["schema"].get("$ref", "")
    properties = schema["components"]["schemas"][ref.rsplit("/", 1)[-1]].get("properties", {})
    return any(name == "id" or name.endswith("_id") for name in properties)


def _problems(operation) -> set[int]:
    return {int(code) for code in operation["responses"] if code[0] in "45"}


def test_every_operation_has_a_summary(schema):
    summaries = [(op.get("summary") or "").strip() for _, _, op in _operations(schema)]
    assert all(summaries), "operations without a summary"
    assert len(summaries) > 50


@pytest.mark.django_db
def test_every_operation_names_the_roles_the_database_allows_and_the_scope(schema):
    for path, method, operation in _operations(schema):
        view = _view(path)
        roles_line = re.search(r"\*\*Allowed roles:\*\* ([^\n]*)", operation["description"])
        assert roles_line, f"{method} {path}: no roles"
        listed = set(re.findall(r"`([a-z_]+)`", roles_line.group(1).split("**Credential")[0]))
        if getattr(view, "public", False):
            assert "public" in roles_line.group(1), f"{method} {path}"
            continue
        needed = view.required_permissions[method]
        needed = {needed} if isinstance(needed, str) else set(needed)
        # The groups as synced into the database: what a request is actually checked against.
        granted = {r for r in ALL_ROLES if needed <= roles.role_permissions(r)}
        assert listed == granted, f"{method} {path}: lists {listed}, the database grants {granted}"
        credential_roles = {roles.OPERATOR_INTEGRATION, roles.DEALER_DEVICE}
        if listed & credential_roles:
            scope = required_scope(view, method)
            assert f"**Credential scope:** `{scope}`" in roles_line.group(1), f"{method} {path}"


def test_each_operation_lists_only_its_own_problems_each_with_an_example(schema):
    problem_sets = set()
    for path, method, operation in _operations(schema):
        codes = _problems(operation)
        problem_sets.add(frozenset(codes))
        where = f"{method} {path}: {sorted(codes)}"
        params = operation.get("parameters", [])
        public = getattr(_view(path), "public", False)
        idempotent = any(p["name"] == "Idempotency-Key" for p in params)
        has_input = (  # a malformed Idempotency-Key is a 400 too
            "requestBody" in operation or any(p["in"] == "query" for p in params) or idempotent
        )
        assert {405, 406}.isdisjoint(codes), where  # no generic list any more
        assert (400 in codes) == has_input, where
        assert (401 in codes and 403 in codes) == (not public), where
        path_id = any(p["in"] == "path" for p in params)
        assert (404 in codes) == (path_id or _body_names_ids(schema, operation)), where
        assert (415 in codes) == ("requestBody" in operation), where
        if method == "GET":
            assert {409, 415, 422}.isdisjoint(codes), where  # a read conflicts with nothing
        else:
            assert 409 in codes, where  # a change can meet a state that forbids it
        if idempotent:
            assert {409, 422} <= codes, where  # the key in flight; reused with another body
        for code in codes:
            content = operation["responses"][str(code)]["content"]
            if "application/problem+json" not in content:
                continue  # the view's own body for it (the health check's 503)
            example = content["application/problem+json"]["example"]
            assert example["status"] == code and example["type"].startswith(TYPE_BASE), where
            assert example["title"] and example["detail"], where
    assert len(problem_sets) > 4  # operations differ in what they can answer


def test_known_operations_document_what_they_answer(schema):
    ops = {(method, path): op for path, method, op in _operations(schema)}
    assert _problems(ops[("GET", "/api/v1/health/")]) == {503}
    assert _problems(ops[("POST", "/api/v1/rounds/{id}/bets/")]) == {
        400, 401, 403, 404, 409, 415, 422, 429, 503
    }  # fmt: skip
    assert _problems(ops[("GET", "/api/v1/wallets/{id}/")]) == {401, 403, 404, 429, 503}
    webhook = ops[("PUT", "/api/v1/operator/webhook/")]["description"]
    assert "`operator_integration` (an operator's API key)" in webhook
    assert "**Credential scope:** `money`" in webhook
    assert "`floor_supervisor`" not in webhook.split("**Allowed roles:**")[1]


def test_the_schema_links_the_guide_and_the_guide_is_served_from_its_markdown(client, schema):
    assert "/api/v1/docs/guide/" in schema["info"]["description"]
    response = client.get("/api/v1/docs/guide/")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/html")
    page = response.content.decode()
    assert "<h1>Getting started as an operator</h1>" in page
    # The walk-through, in order, with runnable curl examples rendered as code.
    steps = ["A player", "A wallet", "A deposit", "A bet", "Decisions", "Settlement", "Webhooks"]
    positions = [page.index(f"{n}. {step}</h2>") for n, step in enumerate(steps, 1)]
    assert positions == sorted(positions)
    assert page.count("<code>") >= 8 and "curl" in page and "webhook-signature" in page
    markdown_text = GUIDE_FILE.read_text()
    assert "/players/" in markdown_text and "&lt;bet_id" in page  # escaped, not raw HTML
    assert client.post("/api/v1/docs/guide/").status_code == 405


def test_an_optional_text_field_accepts_its_own_default(schema):
    """A request field documented with the default "" accepts "": a generated client sends the
    documented default, which must not come back as a 400 (the players' display_name did)."""
    refused = []
    for name, component in schema["components"]["schemas"].items():
        for field, spec in component.get("properties", {}).items():
            if spec.get("default") == "" and spec.get("minLength", 0) > 0:
                refused.append(f"{name}.{field}")
    assert refused == []
