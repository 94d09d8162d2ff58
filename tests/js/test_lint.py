"""ESLint over static/js: the modules run in the browser as written, so lint is their only build."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ESLINT = ROOT / "node_modules" / ".bin" / "eslint"


def test_static_js_has_no_lint_findings() -> None:
    if not ESLINT.exists():
        message = "ESLint is missing: `make venv-dev` installs it with `npm ci`"
        # Like the browser tests: a laptop without Node.js skips, CI (VTT_REQUIRE_ESLINT) fails.
        if shutil.which("npm") or os.environ.get("VTT_REQUIRE_ESLINT"):
            pytest.fail(message)
        pytest.skip(message + " (npm not found)")
    result = subprocess.run(
        [str(ESLINT), "--max-warnings", "0", "static/js"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
