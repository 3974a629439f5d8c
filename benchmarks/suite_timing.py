"""Wall time of the README's commands on a fresh clone, as a new user runs them.

Clones the repository at HEAD into a temporary directory, runs one named command there
(``checker``: the claims checker, ``tests``: the test command, ``ci``: ``.ci/run``) with
the ``CI`` variable removed (except for ``ci``, which sets it itself), and writes the
command, its exit status, its wall time, the commit and the machine to ``OUT/<name>.json``
and its output to ``OUT/<name>.log``. The commands are read from the README's first two
code blocks, so the timing is of what a newcomer types.

    python benchmarks/suite_timing.py tests --out benchmarks/results/cpu-2core-2026-12-05
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def readme_commands(readme: Path = ROOT / "README.md") -> dict:
    """The README's first two bash blocks: the claims checker and the test command."""
    blocks = re.findall(r"```bash\n(.*?)\n```", readme.read_text(), flags=re.S)
    if len(blocks) < 2:
        raise SystemExit("README.md must open with two bash blocks (the claims checker, the tests)")
    return {"checker": blocks[0].strip(), "tests": blocks[1].strip(), "ci": "bash .ci/run"}


def machine() -> dict:
    model = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                  if line.startswith("model name")), platform.processor()) if Path("/proc/cpuinfo").exists() else ""
    return {"cpus": os.cpu_count(), "cpu": model, "python": platform.python_version(), "system": platform.system()}


def main(argv=None) -> int:
    commands = readme_commands()
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("name", choices=sorted(commands))
    p.add_argument("--out", required=True, help="folder of the JSON and log")
    args = p.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "VIRTUAL_ENV")}
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep) if ".venv" not in p)
    with tempfile.TemporaryDirectory() as tmp:
        clone = Path(tmp) / "clone"
        subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
        start = time.perf_counter()
        with open(out / f"{args.name}.log", "w") as log:
            rc = subprocess.run(["bash", "-c", commands[args.name]], cwd=clone, env=env, stdout=log,
                                stderr=subprocess.STDOUT).returncode
        seconds = time.perf_counter() - start
    record = {"name": args.name, "command": commands[args.name], "returncode": rc, "seconds": round(seconds, 1),
              "commit": commit, "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "machine": machine(),
              "clean_clone": True, "ci_variable": args.name == "ci"}
    (out / f"{args.name}.json").write_text(json.dumps(record, indent=1) + "\n")
    print(f"{args.name}: exit {rc} after {seconds:.0f} s", file=sys.stderr)
    return rc


if __name__ == "__main__":
    sys.exit(main())
