#!/usr/bin/env python3
"""A scripted reviewer over real history (issue 25's "done means").

For each case of the evidence corpus (bench/corpus/cases*.json; the cut
repositories bench/corpus/cut.py makes), premise run is walked as a
reviewer who follows only what --help says:

  backwards: the upstream bug fix taken backwards (base = the fix, head =
    its parent's code: the patch re-introduces the bug). The reviewer
    rejects every behaviour change (C items: regressions) and every
    assumption, then runs premise run again. Wanted: the gate fails
    wherever the evidence found the change.
  forwards: the same fix taken forwards (base = the buggy code, head = the
    fix: an intended change). The reviewer accepts every behaviour change
    (intended) and rejects every assumption (the patch was not meant to
    rely on one), then runs premise run again. Wanted: the gate holds.

Per case it records the decisions the reviewer had to make (change items
and assumptions apart), the second run's verdict and exit status.

usage: review.py PREMISE CUTDIR OUT.json [--only id,id] [--breaking N] [--forwards N]
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def cases():
    out = []
    for name in sorted(os.listdir(os.path.join(HERE, "..", "corpus"))):
        if name.startswith("cases") and name.endswith(".json"):
            with open(os.path.join(HERE, "..", "corpus", name)) as f:
                out += json.load(f)["cases"]
    return out


def sh(*args, cwd=None, check=True):
    return subprocess.run(args, cwd=cwd, check=check, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def premise(p, repo, *args):
    r = subprocess.run([p, *args, "--repo", repo], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=1200)
    return r


def run(p, repo, base, py):
    r = premise(p, repo, "run", "--base", base, "--head", "HEAD", "--model", "static", "--json", "--quiet", "--python", py)
    try:
        return r.returncode, json.loads(r.stdout)
    except ValueError:
        return r.returncode, {"error": (r.stderr.strip().splitlines() or ["no JSON"])[-1][:300]}


def items(repo):
    path = os.path.join(repo, "assumptions.yaml")
    if not os.path.exists(path):
        return [], []
    ids = re.findall(r"^  - id: ([AC][0-9]+)$", open(path).read(), re.M)
    return [i for i in ids if i.startswith("C")], [i for i in ids if i.startswith("A")]


def one(p, cutdir, case, direction, py):
    src = os.path.join(cutdir, case["id"])
    tmp = tempfile.mkdtemp(prefix="review-")
    repo = os.path.join(tmp, "repo")
    sh("git", "clone", "-q", src, repo)
    for k, v in (("user.name", "agent"), ("user.email", "agent@example.invalid")):
        sh("git", "config", k, v, cwd=repo)
    base = "HEAD~1"
    if direction == "forwards":
        # The fix taken forwards: a commit on top of the buggy head that
        # restores the fixed files.
        sh("git", "checkout", "-q", "HEAD~1", "--", ".", cwd=repo)
        sh("git", "commit", "-q", "-am", "the upstream fix, forwards", cwd=repo)
    res = {"id": case["id"], "repo": case["repo"], "lang": case["lang"], "direction": direction}
    code, first = run(p, repo, base, py)
    res["first_exit"], res["first_verdict"] = code, first.get("verdict", first.get("error"))
    changes, assumptions = items(repo)
    res["change_items"], res["assumption_items"] = len(changes), len(assumptions)
    res["behaviour_changes"] = len(first.get("behavior_changes") or []) + len(first.get("unexplained_changes") or [])
    res["changed_callers"] = sum(1 for c in (first.get("behavior_changes") or []) + (first.get("unexplained_changes") or []) if c.get("cause"))
    reg = os.path.join(repo, "assumptions.yaml")
    if changes:
        verb = ["reject", "--note", "a regression"] if direction == "backwards" else ["accept", "--note", "intended"]
        premise(p, repo, verb[0], *changes, "--register", reg, *verb[1:])
    if assumptions:
        premise(p, repo, "reject", *assumptions, "--register", reg, "--note", "the patch must not rely on it")
    code, second = run(p, repo, base, py)
    res["exit"], res["verdict"] = code, second.get("verdict", second.get("error"))
    res["next"] = second.get("next", "")
    g = second.get("gate") or {}
    res["gate_rows"], res["gate_fail"] = g.get("rows", 0), g.get("fail", 0) + g.get("error", 0)
    shutil.rmtree(tmp, ignore_errors=True)
    return res


def main():
    a = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    a.add_argument("premise")
    a.add_argument("cutdir")
    a.add_argument("out")
    a.add_argument("--only")
    a.add_argument("--breaking", type=int, default=15)
    a.add_argument("--forwards", type=int, default=10)
    a.add_argument("--python", default=shutil.which("python3"))
    args = a.parse_args()
    cs = [c for c in cases() if c["kind"] == "breaking" and os.path.isdir(os.path.join(args.cutdir, c["id"]))]
    if args.only:
        keep = set(args.only.split(","))
        cs = [c for c in cs if c["id"] in keep]
    # one case a project first, so the sample spans projects
    seen, spread = set(), []
    for c in cs:
        if c["repo"] not in seen:
            seen.add(c["repo"])
            spread.append(c)
    spread += [c for c in cs if c not in spread]
    results = []
    for c in spread[: args.breaking]:
        results.append(one(args.premise, args.cutdir, c, "backwards", args.python))
        print(json.dumps(results[-1]), flush=True)
    for c in spread[: args.forwards]:
        results.append(one(args.premise, args.cutdir, c, "forwards", args.python))
        print(json.dumps(results[-1]), flush=True)
    with open(args.out, "w") as f:
        json.dump(results, f, indent=1)
    back = [r for r in results if r["direction"] == "backwards"]
    fwd = [r for r in results if r["direction"] == "forwards"]
    found = [r for r in back if r["change_items"] > 0]
    print("backwards: %d cases, evidence found a change in %d, gate fails after review in %d of those (%d overall)" % (
        len(back), len(found), sum(1 for r in found if r["exit"] == 1 and r["verdict"] == "the gate failed"),
        sum(1 for r in back if r["exit"] == 1 and r["verdict"] == "the gate failed")))
    print("forwards: %d cases, gate holds after review in %d" % (len(fwd), sum(1 for r in fwd if r["exit"] == 0)))
    dec = [r["change_items"] for r in results]
    print("decisions per patch: change items %s (mean %.1f), assumptions %s" % (
        dec, sum(dec) / max(1, len(dec)), [r["assumption_items"] for r in results]))


if __name__ == "__main__":
    main()
