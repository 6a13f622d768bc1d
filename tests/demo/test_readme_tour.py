"""The README's pictures exist, are referenced, and come from the browser test that
`make screenshots` runs (so they are regenerated, never drawn by hand)."""

import re

from conftest import ROOT


def _screenshots_recipe() -> str:
    makefile = (ROOT / "Makefile").read_text()
    match = re.search(r"^screenshots:.*\n((?:\t.*\n)+)", makefile, re.MULTILINE)
    assert match, "the Makefile has a screenshots target"
    return match.group(1)


def test_every_readme_image_exists_and_is_taken_by_the_tests_make_screenshots_runs():
    readme = (ROOT / "README.md").read_text()
    images = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", readme)
    assert len(images) >= 5, "the tour: floor, live round, replay, report, its PDF"
    recipe = _screenshots_recipe()
    directory = re.search(r"TOUR_SCREENSHOTS_DIR=(\S+)", recipe).group(1)
    tests = re.findall(r"tests/\S+\.py", recipe)
    assert tests, "the target names the tests that take the pictures"
    sources = "".join((ROOT / test).read_text() for test in tests)
    for image in images:
        path = ROOT / image
        assert path.is_file(), f"{image} is referenced by the README but missing"
        assert path.parent == ROOT / directory, f"{image} is not where `make screenshots` writes"
        assert path.read_bytes().startswith(b"\x89PNG"), image
        assert f'"{path.stem}"' in sources, f"no test in {tests} takes {path.name}"
    assert all(f"docs/screenshots/{p.name}" in readme for p in (ROOT / directory).glob("*.png"))
