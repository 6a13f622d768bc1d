"""The operator guide (docs/operator-guide.md) served as a page, next to the API reference.

The Markdown file in the repository is the single source: the page is rendered from it once
per process. Like the schema and the Swagger page it is public and touches no data.
"""

from functools import cache
from html import escape

import markdown
from django.conf import settings
from django.http import HttpResponse
from django.views import View

GUIDE_FILE = settings.BASE_DIR / "docs" / "operator-guide.md"

_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title></head>
<body><main>
{body}
</main></body></html>
"""


@cache
def guide_html() -> str:
    text = GUIDE_FILE.read_text(encoding="utf-8")
    title = text.splitlines()[0].lstrip("# ").strip() if text else "Operator guide"
    body = markdown.markdown(text, extensions=["fenced_code", "tables"], output_format="html")
    return _PAGE.format(title=escape(title), body=body)


class OperatorGuideView(View):
    public = True
    http_method_names = ["get", "head"]

    def get(self, request):
        return HttpResponse(guide_html(), content_type="text/html; charset=utf-8")
