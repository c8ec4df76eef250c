"""setup_session fails the way a clone without network does."""

from pathlib import Path


def setup_session(cache_dir):
    marker = Path(__file__).resolve().parents[2] / "cache-dir.txt"
    marker.write_text(str(cache_dir), encoding="utf-8")
    raise RuntimeError("no network for the clone")
