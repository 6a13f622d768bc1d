"""The pages a problem's ``type`` URL resolves to: one per problem type, and an index,
generated from the problem registry (``casino.api.problems.problem_registry``). Public, like
the schema and the operator guide, and touching no data."""

from functools import cache
from html import escape

from django.http import Http404, HttpResponse
from django.views import View

from casino.api.problems import TYPE_BASE, ProblemType, problem_registry

_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title></head>
<body><main>
{body}
</main></body></html>
"""

_MEMBERS = """<h2>The problem's members</h2>
<dl>
<dt><code>type</code></dt><dd>This page's URL.</dd>
<dt><code>title</code></dt><dd>The title above; the same for every occurrence.</dd>
<dt><code>status</code></dt><dd>The HTTP status, {status}.</dd>
<dt><code>detail</code></dt><dd>What went wrong this time, for a person to read.</dd>
<dt><code>code</code></dt><dd><code>{code}</code>: match on this, not on the text.</dd>
<dt><code>param</code></dt><dd>When one input is at fault: the body field, query parameter
or header (absent otherwise).</dd>
<dt><code>errors</code></dt><dd>When inputs are at fault: each one's <code>field</code> and
<code>message</code>.</dd>
<dt><code>request_id</code></dt><dd>The request's id (also the <code>X-Request-ID</code>
header): quote it to support.</dd>
</dl>
<p><a href="{index}">Every problem type</a></p>"""


def _page(title: str, body: str) -> str:
    return _PAGE.format(title=escape(title), body=body)


@cache
def problem_page_html(code: str) -> str | None:
    problem: ProblemType | None = problem_registry().get(code)
    if problem is None:
        return None
    body = (
        f"<h1>{escape(problem.title)}</h1>\n"
        f"<p>HTTP {problem.status} &middot; <code>{escape(problem.code)}</code></p>\n"
        f"<p>{escape(problem.description)}</p>\n"
        + _MEMBERS.format(status=problem.status, code=escape(problem.code), index=TYPE_BASE)
    )
    return _page(f"Problem: {problem.title}", body)


@cache
def problem_index_html() -> str:
    rows = "\n".join(
        f'<tr><td>{p.status}</td><td><a href="{TYPE_BASE}{escape(p.code)}">'
        f"<code>{escape(p.code)}</code></a></td><td>{escape(p.title)}</td></tr>"
        for p in sorted(problem_registry().values(), key=lambda p: (p.status, p.code))
    )
    body = (
        "<h1>Problem types</h1>\n<p>Every error the API answers is an RFC 9457 problem "
        "(application/problem+json) of one of these types.</p>\n"
        "<table><thead><tr><th>Status</th><th>Code</th><th>Title</th></tr></thead>\n"
        f"<tbody>\n{rows}\n</tbody></table>"
    )
    return _page("Problem types", body)


class ProblemIndexView(View):
    public = True
    http_method_names = ["get", "head"]

    def get(self, request):
        return HttpResponse(problem_index_html(), content_type="text/html; charset=utf-8")


class ProblemPageView(View):
    public = True
    http_method_names = ["get", "head"]

    def get(self, request, code: str):
        html = problem_page_html(code)
        if html is None:
            raise Http404(f"No problem type {code!r}.")
        return HttpResponse(html, content_type="text/html; charset=utf-8")
