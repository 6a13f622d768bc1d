"""Regenerate the typed Python client from the API's OpenAPI schema, or check it is current.

    python -m clients.generate           # writes clients/openapi.json and clients/casino_client/
    python -m clients.generate --check   # exit 1, naming the files, if the committed copy drifted

The schema is drf-spectacular's (the one ``/api/v1/schema/`` serves), written as sorted JSON;
the client is openapi-python-client's output for it (pinned in requirements-dev.txt, settings in
clients/openapi-python-client.yaml), generated in a temporary folder outside the repository so
no repository setting changes its bytes. ``make client`` runs the first form; the test
tests/clients/test_client_drift.py runs the check, so CI fails while the committed client lags
the schema.
"""

from __future__ import annotations

import argparse
import filecmp
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
SCHEMA = HERE / "openapi.json"
PACKAGE = HERE / "casino_client"
CONFIG = HERE / "openapi-python-client.yaml"


def schema_text() -> str:
    """The API's OpenAPI schema as the committed file holds it (Django must be set up)."""
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    return json.dumps(schema, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def _generator() -> list[str]:
    script = Path(sys.executable).with_name("openapi-python-client")
    found = str(script) if script.exists() else shutil.which("openapi-python-client")
    if not found:
        raise SystemExit(
            "openapi-python-client is not installed: `make setup-dev` installs it "
            "(requirements-dev.txt)."
        )
    return [found]


def generate(schema: str, out: Path) -> Path:
    """openapi-python-client's package for ``schema`` in ``out`` (a fresh folder)."""
    work = Path(tempfile.mkdtemp(prefix="casino-client-"))
    try:
        (work / "openapi.json").write_text(schema)
        env = dict(os.environ)
        # its post hooks call ruff: this interpreter's (the pinned one) first on the path
        env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
        subprocess.run(  # noqa: S603 -- our own pinned tool, fixed arguments
            [
                *_generator(),
                "generate",
                "--path",
                str(work / "openapi.json"),
                "--config",
                str(CONFIG),
                "--meta",
                "none",
                "--output-path",
                str(work / "casino_client"),
                "--overwrite",
            ],
            cwd=work,
            env=env,
            check=True,
            capture_output=True,
            text=True,
        )
        if out.exists():
            shutil.rmtree(out)
        shutil.copytree(work / "casino_client", out, ignore=shutil.ignore_patterns("__pycache__"))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return out


def _files(root: Path) -> set[str]:
    return {
        str(p.relative_to(root))
        for p in root.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    }


def drift(scratch: Path) -> list[str]:
    """What differs between the committed schema and client and freshly generated ones."""
    schema = schema_text()
    problems = []
    if not SCHEMA.exists() or SCHEMA.read_text() != schema:
        problems.append(f"{SCHEMA.name}: not the current schema")
    fresh = generate(schema, scratch / "casino_client")
    committed = _files(PACKAGE) if PACKAGE.exists() else set()
    generated = _files(fresh)
    problems += [f"casino_client/{name}: missing" for name in sorted(generated - committed)]
    problems += [f"casino_client/{name}: not generated" for name in sorted(committed - generated)]
    problems += [
        f"casino_client/{name}: differs"
        for name in sorted(committed & generated)
        if not filecmp.cmp(PACKAGE / name, fresh / name, shallow=False)
    ]
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="report drift, change nothing")
    args = parser.parse_args(argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
    import django

    django.setup()
    if args.check:
        with tempfile.TemporaryDirectory() as scratch:
            problems = drift(Path(scratch))
        for problem in problems:
            print(problem)
        if problems:
            print("The client lags the API: run `make client` and commit clients/.")
        return 1 if problems else 0
    schema = schema_text()
    SCHEMA.write_text(schema)
    generate(schema, PACKAGE)
    print(f"wrote {SCHEMA.relative_to(HERE.parent)} and {PACKAGE.relative_to(HERE.parent)}/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
