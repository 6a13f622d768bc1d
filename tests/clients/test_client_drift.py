"""The committed typed client (clients/casino_client) is what the generator makes of the
current schema: an API change without `make client` fails here, naming the files."""

from __future__ import annotations

import shutil

from clients import generate


def test_the_committed_client_is_generated_from_the_current_schema(tmp_path):
    problems = generate.drift(tmp_path)
    assert not problems, "run `make client` and commit clients/:\n" + "\n".join(problems)


def test_the_drift_check_sees_a_changed_file(tmp_path, monkeypatch):
    """The check compares bytes: a hand edit of the committed client is drift."""
    copy = tmp_path / "committed"
    shutil.copytree(generate.PACKAGE, copy)
    (copy / "client.py").write_text((copy / "client.py").read_text() + "# edited\n")
    (copy / "api" / "extra.py").write_text("")
    monkeypatch.setattr(generate, "PACKAGE", copy)
    problems = generate.drift(tmp_path / "scratch")
    assert "casino_client/client.py: differs" in problems
    assert "casino_client/api/extra.py: not generated" in problems
