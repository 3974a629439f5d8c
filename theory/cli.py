"""Command line: ``python -m theory report|list|check ID`` (also ``paperchecks``)."""
from __future__ import annotations

import argparse
import json

from .evidence import Context


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="paperchecks", description=__doc__)
    p.add_argument("--seed", type=int, default=Context.seed)
    p.add_argument("--mc-scale", type=float, default=1.0)
    p.add_argument("--backend", default="numpy", choices=("numpy", "cupy"))
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("report", help="regenerate paper_checks.md and paper_checks.json")
    r.add_argument("--out", default=".")
    r.add_argument("--refresh", action="append", metavar="CLAIM_ID",
                   help="re-evaluate only this claim (repeatable) and merge it into the existing report, whose "
                        "context (seed, scale, backend) must match; the Monte-Carlo claim count must be unchanged")
    sub.add_parser("list", help="list claim ids with their recorded verdicts")
    c = sub.add_parser("check", help="run one claim and print its evidence")
    c.add_argument("claim_id")
    a = p.parse_args(argv)
    ctx = Context(seed=a.seed, scale=a.mc_scale, backend=a.backend)
    from . import catalogue, report

    if a.cmd == "list":
        for cl in catalogue.CLAIMS:
            print(f"{cl.id:45s} {cl.verdict.value}")
    elif a.cmd == "check":
        ev = catalogue.evaluate(catalogue.get(a.claim_id), ctx)
        print(json.dumps(ev.to_json(), indent=1, default=str))
    else:
        recs = (report.refresh_report(a.out, a.refresh, ctx) if a.refresh else report.write_report(a.out, ctx))
        bad = [x["id"] for x in recs if x["verdict"] != x["recorded_verdict"]]
        print(f"{len(recs)} claims; {len(bad)} differ from the recorded verdict: {bad}")
        return 1 if bad else 0
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
