"""ESLint over static/js: the modules run in the browser as written, so lint is their only build."""

from __future__ import annotations

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ESLINT = ROOT / "node_modules" / ".bin" / "eslint"


def test_static_js_has_no_lint_findings() -> None:
    assert ESLINT.exists(), "ESLint is missing: `make venv-dev` installs it with `npm ci`"
    result = subprocess.run(
        [str(ESLINT), "--max-warnings", "0", "static/js"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
