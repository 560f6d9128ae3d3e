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
and assumptions apart), the exit status of each decision command, the
second run's verdict and exit status, and what the second run left for a
case that does not end in "the gate holds" (its `next`, the symbols it
left unchecked, the failing rows, the register check's findings).

usage: review.py PREMISE CUTDIR OUT.json [--cases FILE]... [--only id,id]
                 [--per-project N] [--breaking N] [--forwards N] [--keep DIR]
       review.py --from OUT.json [--from OUT.json]...

--cases FILE reads the cases from FILE (repeatable; default every
bench/corpus/cases*.json). --per-project N takes at most N breaking cases
of a project, ordered round-robin over the projects (the first of each,
then the second of each, ...); without it the order is the first case of
each project, then the rest in file order. --keep DIR leaves each case's
two run summaries and its register, partitions and draft in
DIR/<direction>-<id>/. OUT.json is rewritten after every case. --from
prints the figures and the per-case table of earlier OUT.json files.
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


def cases(files=None):
    if not files:
        corpus = os.path.join(HERE, "..", "corpus")
        files = [os.path.join(corpus, name) for name in sorted(os.listdir(corpus))
                 if name.startswith("cases") and name.endswith(".json")]
    out = []
    for name in files:
        with open(name) as f:
            out += json.load(f)["cases"]
    return out


def order(cs, per_project=None):
    """The first case of each project first, so a sample spans projects.
    With per_project, at most that many a project, round-robin."""
    if per_project is None:
        seen, spread = set(), []
        for c in cs:
            if c["repo"] not in seen:
                seen.add(c["repo"])
                spread.append(c)
        return spread + [c for c in cs if c not in spread]
    byrepo = {}
    for c in cs:
        byrepo.setdefault(c["repo"], []).append(c)
    spread = []
    for rank in range(per_project):
        spread += [l[rank] for l in byrepo.values() if rank < len(l)]
    return spread


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


def left(second):
    """What a second run that does not hold left: its steps, the gate's
    failing rows (and those failing on base too), the register check's
    findings, the symbols with no rows or whose rows did not run every
    changed line, and why evidence could not run."""
    g = second.get("gate") or {}
    ck = second.get("check") or {}
    out = {
        "steps": second.get("steps") or [],
        "gate_failing": g.get("failing") or [],
        "gate_base_fails": g.get("base_fails") or [],
        "check_findings": ck.get("findings") or [],
        "no_rows": [{"symbol": s["symbol"], "why": s.get("why", "")} for s in second.get("evidence_symbols") or [] if s.get("why") or not s.get("rows")],
        "unreached": [s["symbol"] for s in second.get("evidence_symbols") or []
                      if ((s.get("coverage") or {}).get("head") or {}).get("reached", 0) < ((s.get("coverage") or {}).get("head") or {}).get("changed", 0)],
        "head_broken": second.get("head_broken") or [],
        "evidence_skipped": second.get("evidence_skipped") or [],
    }
    return {k: v for k, v in out.items() if v}


def keep(keepdir, case, direction, repo, first, second):
    d = os.path.join(keepdir, "%s-%s" % (direction, case["id"]))
    os.makedirs(d, exist_ok=True)
    for name, doc in (("first.json", first), ("second.json", second)):
        with open(os.path.join(d, name), "w") as f:
            json.dump(doc, f, indent=1)
    for name in ("assumptions.yaml", "partitions.yaml", "draft.md"):
        if os.path.exists(os.path.join(repo, name)):
            shutil.copy(os.path.join(repo, name), os.path.join(d, name))


def one(p, cutdir, case, direction, py, keepdir=None):
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
    res["decision_exits"] = []
    if changes:
        verb = ["reject", "--note", "a regression"] if direction == "backwards" else ["accept", "--note", "intended"]
        r = premise(p, repo, verb[0], *changes, "--register", reg, *verb[1:])
        res["decision_exits"].append(r.returncode)
        if r.returncode:
            res["decision_error"] = r.stderr.strip()[-300:]
    if assumptions:
        r = premise(p, repo, "reject", *assumptions, "--register", reg, "--note", "the patch must not rely on it")
        res["decision_exits"].append(r.returncode)
        if r.returncode:
            res["decision_error"] = r.stderr.strip()[-300:]
    code, second = run(p, repo, base, py)
    res["exit"], res["verdict"] = code, second.get("verdict", second.get("error"))
    res["next"] = second.get("next", "")
    g = second.get("gate") or {}
    res["gate_rows"], res["gate_fail"] = g.get("rows", 0), g.get("fail", 0) + g.get("error", 0)
    # The run's contrast on the base: rows it says fail there too (the
    # table, not the patch, is wrong), and rows pinning an accepted change
    # the base does not make.
    res["base_fails"], res["base_differs"] = len(g.get("base_fails") or []), len(g.get("base_differs") or [])
    if code != 0:
        res["left"] = left(second)
    if keepdir:
        keep(keepdir, case, direction, repo, first, second)
    shutil.rmtree(tmp, ignore_errors=True)
    return res


def summary(results):
    """The figures, as lines."""
    back = [r for r in results if r["direction"] == "backwards"]
    fwd = [r for r in results if r["direction"] == "forwards"]
    failed = lambda r: r["exit"] == 1 and r["verdict"] == "the gate failed"
    found = [r for r in back if r["change_items"] > 0]
    ffound = [r for r in fwd if r["change_items"] > 0]
    out = [
        "backwards: %d cases, evidence found a change in %d, gate fails after review in %d of those (%d overall)" % (
            len(back), len(found), sum(1 for r in found if failed(r)), sum(1 for r in back if failed(r))),
        "forwards: %d cases, gate holds after review in %d; evidence found a change in %d, the gate holds in %d of those" % (
            len(fwd), sum(1 for r in fwd if r["exit"] == 0), len(ffound), sum(1 for r in ffound if r["exit"] == 0)),
    ]
    dec = [r["change_items"] for r in results]
    asm = [r["assumption_items"] for r in results]
    spread = lambda xs: ", ".join("%d: %d" % (n, xs.count(n)) for n in sorted(set(xs)))
    out.append("decisions per patch: change items mean %.2f (patches with n items: %s), assumptions mean %.2f (%s)" % (
        sum(dec) / max(1, len(dec)), spread(dec), sum(asm) / max(1, len(asm)), spread(asm)))
    ran = [r for r in results if r.get("gate_rows")]
    if ran and all("base_fails" in r for r in ran):
        out.append("contrast on the base: %d of %d gated runs blame rows on the table (fail on base too: %d rows); %d rows pin an accepted change the base does not make" % (
            sum(1 for r in ran if r["base_fails"]), len(ran), sum(r["base_fails"] for r in ran), sum(r.get("base_differs", 0) for r in ran)))
    for d, rs in (("backwards", back), ("forwards", fwd)):
        ends = {}
        for r in rs:
            k = "%s (exit %s)" % (r["verdict"] if r["exit"] != 3 else "premise could not do its job", r["exit"])
            ends[k] = ends.get(k, 0) + 1
        out.append("%s second runs: %s" % (d, ", ".join("%s: %d" % kv for kv in sorted(ends.items(), key=lambda kv: -kv[1]))))
    return out


def table(results):
    """The per-case Markdown table."""
    out = ["| direction | case | project | change items | changed inputs | assumptions | decisions (their commands' exits) | gate rows | second run |",
           "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for r in results:
        out.append("| %s | %s | %s | %d | %d (%d via callers) | %d | %d (%s) | %s | %s (exit %s) |" % (
            r["direction"], r["id"], r["repo"], r["change_items"], r["behaviour_changes"], r["changed_callers"], r["assumption_items"],
            r["change_items"] + r["assumption_items"], ",".join(str(e) for e in r.get("decision_exits", [])) or "-",
            r["gate_rows"] if r.get("gate_rows") else "-",
            "premise could not do its job" if r["exit"] == 3 else (r["verdict"] or "").replace("|", "/"), r["exit"]))
    return out


def main():
    a = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    a.add_argument("premise", nargs="?")
    a.add_argument("cutdir", nargs="?")
    a.add_argument("out", nargs="?")
    a.add_argument("--from", dest="frm", action="append", metavar="OUT.json", help="print the figures and the table of earlier results (repeatable); run nothing")
    a.add_argument("--cases", action="append", metavar="FILE", help="a cases JSON file (repeatable; default every bench/corpus/cases*.json)")
    a.add_argument("--only")
    a.add_argument("--per-project", type=int, metavar="N", help="at most N breaking cases a project, round-robin")
    a.add_argument("--keep", metavar="DIR", help="leave each case's run summaries and register in DIR")
    a.add_argument("--breaking", type=int, default=15)
    a.add_argument("--forwards", type=int, default=10)
    a.add_argument("--python", default=shutil.which("python3"))
    args = a.parse_args()
    if args.frm:
        results = []
        for name in args.frm:
            with open(name) as f:
                results += json.load(f)
        print("\n".join(summary(results) + [""] + table(results)))
        return
    if not (args.premise and args.cutdir and args.out):
        a.error("PREMISE, CUTDIR and OUT.json are needed unless --from is given")
    cs = [c for c in cases(args.cases) if c["kind"] == "breaking" and os.path.isdir(os.path.join(args.cutdir, c["id"]))]
    if args.only:
        keep = set(args.only.split(","))
        cs = [c for c in cs if c["id"] in keep]
    spread = order(cs, args.per_project)
    results = []
    todo = [(c, "backwards") for c in spread[: args.breaking]] + [(c, "forwards") for c in spread[: args.forwards]]
    for c, direction in todo:
        results.append(one(args.premise, args.cutdir, c, direction, args.python, args.keep))
        print(json.dumps(results[-1]), flush=True)
        with open(args.out, "w") as f:
            json.dump(results, f, indent=1)
    print("\n".join(summary(results)))


if __name__ == "__main__":
    main()
