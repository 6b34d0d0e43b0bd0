"""The examples of docs/python.md run, and print what the page says they print."""

import doctest

from conftest import ROOT


def test_the_readme_example():
    result = doctest.testfile(str(ROOT / "README.md"), module_relative=False)
    assert result.attempted >= 6
    assert result.failed == 0


def test_the_python_page_examples():
    result = doctest.testfile(
        str(ROOT / "docs" / "python.md"),
        module_relative=False,
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE,
    )
    assert result.attempted >= 20
    assert result.failed == 0
