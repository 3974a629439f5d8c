"""Lines per claim of each paper's catalogue: how many source lines declaring a claim
takes, today and with the helpers of theory.kinds (issue 43).

Two measures per paper, over its package (its coverage map left out):

- ``declaration``: the lines of the calls that build the claims (``Claim(...)`` and the
  helpers of :mod:`theory.kinds`; a helper call inside another counts once, as the
  outer call), per claim;
- ``package``: every non-blank, non-comment line of the package's modules (measures,
  judges, simulator glue and declarations together), per claim.

    python benchmarks/lines_per_claim.py            # the built-in papers and every installed one
    python benchmarks/lines_per_claim.py --json     # the same as JSON

>>> rows = measure()
>>> {r["paper"] for r in rows} >= {"arpit2019", "daneshmand2021", "defazio_bottou", "zeroinit2019"}
True
"""
from __future__ import annotations

import argparse
import ast
import importlib
import json
from pathlib import Path

BUILDERS = frozenset({"Claim", "identity_claim", "constant_claim", "precision_claim", "mean_claim", "band_claim",
                      "exponent_claim", "limit_claim", "bound_claim", "reading"})


def _name(func) -> str | None:
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None


def declaration_lines(source: str) -> tuple[int, int]:
    """(claim-building calls, lines they span) in one module's source; a call nested in
    another counted call is part of the outer one."""
    calls, lines = 0, 0

    def visit(node, inside: bool):
        nonlocal calls, lines
        counted = isinstance(node, ast.Call) and _name(node.func) in BUILDERS and not inside
        if counted:
            calls += 1
            lines += node.end_lineno - node.lineno + 1
        for child in ast.iter_child_nodes(node):
            visit(child, inside or counted)

    visit(ast.parse(source), False)
    return calls, lines


def code_lines(source: str) -> int:
    return sum(1 for line in source.splitlines() if line.strip() and not line.strip().startswith("#"))


def package_dir(key: str) -> Path:
    from theory.core import registry

    module = "theory." + key if registry.is_builtin(key) else registry.claim_file(key)[:-3].replace("/", ".")
    return Path(importlib.import_module(module).__file__).parent


def measure() -> list:
    """One row per paper: claims, claim-building calls, their lines, package lines and the
    two per-claim figures."""
    from theory.core import registry

    rows = []
    for p in registry.papers():
        files = [f for f in sorted(package_dir(p.key).rglob("*.py")) if not f.name.startswith("coverage")]
        calls = decl = code = 0
        for f in files:
            text = f.read_text()
            c, d = declaration_lines(text)
            calls, decl, code = calls + c, decl + d, code + code_lines(text)
        n = len(p.claims)
        rows.append({"paper": p.key, "builtin": registry.is_builtin(p.key), "claims": n, "calls": calls,
                     "declaration_lines": decl, "package_lines": code,
                     "declaration_per_claim": round(decl / n, 1) if n else None,
                     "package_per_claim": round(code / n, 1) if n else None})
    return rows


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--json", action="store_true")
    rows = measure()
    if ap.parse_args(argv).json:
        print(json.dumps(rows, indent=1))
        return 0
    print(f"{'paper':16s} {'claims':>6s} {'calls':>6s} {'decl. lines':>11s} {'per claim':>9s} "
          f"{'package lines':>13s} {'per claim':>9s}")
    for r in rows:
        print(f"{r['paper']:16s} {r['claims']:6d} {r['calls']:6d} {r['declaration_lines']:11d} "
              f"{r['declaration_per_claim']!s:>9s} {r['package_lines']:13d} {r['package_per_claim']!s:>9s}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
