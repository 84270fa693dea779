import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))
import jdiff  # noqa: E402


def test_change():
    assert list(jdiff.walk({"a": 1}, {"a": 2})) == ["~ $.a: 1 -> 2"]


def test_accelerator_loads():
    jdiff.accelerator()
