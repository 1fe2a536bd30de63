"""The benchmarks' progress bars: tqdm, one of the test tools (``pip install -e '.[test]'``).

With only the bot installed, a benchmark stops here with one line saying what to
install, instead of a traceback.
"""

from __future__ import annotations

try:
    from tqdm import tqdm
except ModuleNotFoundError as missing:
    raise SystemExit(
        f"error: the benchmarks need the test tools ({missing.name} is not installed): "
        ".venv/bin/pip install -c requirements.lock -e '.[test]'"
    ) from None

__all__ = ["tqdm"]
