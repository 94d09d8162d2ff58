"""The suite runs with ``--import-mode=importlib``, where test modules cannot import a
sibling helper module; putting this directory on ``sys.path`` lets them share one."""

import sys
from pathlib import Path

HERE = str(Path(__file__).resolve().parent)
if HERE not in sys.path:
    sys.path.insert(0, HERE)
