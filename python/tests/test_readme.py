"""The sessions of python/README.md (its ```pycon blocks) run as doctests
from the source tree, in order and sharing their names: the README shows
what the package really prints. "..." in an output matches anything (a
path of this machine). The pandas block is skipped without pandas."""
import doctest
import os
import re

import pytest

from conftest import SRC

README = os.path.join(SRC, "python", "README.md")


def sessions():
    with open(README, encoding="utf-8") as f:
        text = f.read()
    return [m.group(1) for m in re.finditer(r"```pycon\n(.*?)```", text, re.S)]


def test_the_readme_has_sessions():
    assert len(sessions()) == 3


def test_the_readme_sessions_print_what_they_show(monkeypatch):
    monkeypatch.chdir(SRC)  # the sessions name the samples from the source tree
    try:
        import pandas  # noqa: F401
        have_pandas = True
    except ImportError:
        have_pandas = False
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    globs = {}
    ran = 0
    reports = []  # not printed while doctest holds sys.stdout: kept for the message
    for i, block in enumerate(sessions()):
        if "to_pandas" in block and not have_pandas:
            continue
        test = parser.get_doctest(block, globs, f"README session {i + 1}", README, 0)
        runner.run(test, out=reports.append, clear_globs=False)
        globs = test.globs
        ran += 1
    assert runner.failures == 0, "README examples that print something else:\n" + "".join(reports)
    assert ran >= 2
    if not have_pandas:
        pytest.skip("the pandas session: pandas is not installed (Debian: python3-pandas)")
