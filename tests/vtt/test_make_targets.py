"""`make run` installs what running needs; `make test` adds the test and development tools.

The Makefile is read by make itself (`make -n` prints the commands without running them), and
the code the server runs is checked to import nothing that only the `dev` extra installs.
"""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# Import names of the runtime distributions that differ from the distribution's name.
IMPORT_NAMES = {
    "django-environ": "environ",
    "djangorestframework": "rest_framework",
    "drf-spectacular": "drf_spectacular",
    "drf-spectacular-sidecar": "drf_spectacular_sidecar",
    "django-htmx": "django_htmx",
    "django-template-partials": "template_partials",
    "channels-redis": "channels_redis",
    "pillow": "PIL",
    "markdown-it-py": "markdown_it",
}

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")


def _dry_run(target: str, tmp_path: Path) -> str:
    """The commands `make <target>` would run for a fresh clone (a virtualenv not made yet).
    The suite itself runs under `make test`, whose MAKEFLAGS and MAKELEVEL would turn this
    make into a sub-make that prints "Entering/Leaving directory" around the commands."""
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MAKELEVEL", "MFLAGS")}
    result = subprocess.run(
        ["make", "--no-print-directory", "-n", target, f"VENV={tmp_path / 'venv'}"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return result.stdout


def _installs(commands: str) -> list[str]:
    return [line for line in commands.splitlines() if "pip install" in line and " -e " in line]


def test_run_installs_runtime_dependencies_only(tmp_path):
    installs = _installs(_dry_run("run", tmp_path))
    assert installs, "make run installs the project"
    assert all(line.rstrip().endswith("-e .") for line in installs), installs
    assert not any("[dev]" in line for line in installs), installs


def test_test_installs_the_dev_extra(tmp_path):
    commands = _dry_run("test", tmp_path)
    assert any("'.[dev]'" in line for line in _installs(commands)), commands
    assert commands.splitlines()[-1].split()[0].endswith("/pytest")


def test_ci_installs_the_dev_tools_before_ruff():
    script = (ROOT / ".ci" / "run").read_text().splitlines()
    install = script.index("make venv-dev")
    ruff = next(i for i, line in enumerate(script) if "ruff check" in line)
    assert install < ruff
    assert any(line.strip().endswith("make test") for line in script[ruff:])


def _top_level_imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_served_code_imports_no_dev_tool():
    """Everything under vtt/ and systems/ imports only the standard library, the project and
    the runtime dependencies, so a `make run` environment can serve every page."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    runtime = set()
    for requirement in project["dependencies"]:
        name = requirement.split("[")[0].split(">")[0].split("<")[0].split("=")[0].strip()
        runtime.add(IMPORT_NAMES.get(name.lower(), name.lower().replace("-", "_")))
    runtime |= {"kombu", "asgiref", "twisted", "autobahn", "psycopg_pool"}  # come with the above
    allowed = runtime | set(sys.stdlib_module_names) | {"vtt", "systems"}
    offenders = {
        f"{path.relative_to(ROOT)}: {name}"
        for folder in ("vtt", "systems")
        for path in (ROOT / folder).rglob("*.py")
        for name in _top_level_imports(path)
        if name not in allowed
    }
    assert not offenders, sorted(offenders)
