"""The lines-per-claim measure (``benchmarks/lines_per_claim.py``): one row per paper, the
claim-building calls found through nested helpers counted once."""
import importlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
bench = importlib.import_module("lines_per_claim")


def test_nested_builders_count_once_and_span_their_lines():
    source = ("A = reading(\n    precision_claim(id='x',\n                    grid=()),\n    printed={})\n"
              "B = Claim(id='y')\n")
    assert bench.declaration_lines(source) == (2, 5)


def test_every_built_in_paper_has_a_row(capsys):
    rows = {r["paper"]: r for r in bench.measure()}
    for key in ("arpit2019", "daneshmand2021", "defazio_bottou", "zeroinit2019"):
        r = rows[key]
        assert r["builtin"] and r["claims"] > 0 and 0 < r["declaration_lines"] < r["package_lines"]
    assert bench.main([]) == 0 and "arpit2019" in capsys.readouterr().out
