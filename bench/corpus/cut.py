#!/usr/bin/env python3
"""Cut the real-history evidence corpus (issue 13) from fetched mirrors, check
its witnesses, and measure a premise binary on it.

    cut.py cut     MIRRORS OUT [--only ID,...]
    cut.py witness MIRRORS OUT [--only ID,...]     (cuts first when OUT/<id> is missing)
    cut.py measure MIRRORS OUT PREMISE [--python PY] [--only ID,...] [--json FILE]

MIRRORS holds bare mirrors as the sandbox's fetch tool leaves them:
MIRRORS/<owner>+<name>/repo (a plain clone at MIRRORS/<owner>+<name> works too).
The manifest is cases.json beside this script; no upstream code is in this
repository, only references to it.

Each case becomes OUT/<id>, a git repository of two commits:
  1. the case's `tree` (paths copied from upstream at `base`, mapped to the
     cut repo's root, e.g. src/packaging -> packaging) — the base;
  2. the same with the case's `files` taken from upstream at `head` — the head.
For a breaking case base is the upstream fix and head its buggy parent (the
"patch" re-introduces the bug); for a benign case base is the refactor's
parent and head the refactor.

`witness` runs each case's witness call on both sides with plain python3, go
or node (outside premise) and checks the outputs recorded in the manifest.
A JavaScript or TypeScript case's witness is {"module": PATH, "call": EXPR}:
PATH is the module's file in the cut, EXPR a JavaScript expression in which
`m` is the module (CommonJS: what require() returns; ES: the namespace, its
default export at m.default; `require` loads a file beside it). It runs under plain node (TZ=UTC); a returned
promise is awaited; the value is printed with util.inspect (so undefined,
-0, NaN, Map and class instances stay apart), a throw as "throws CLASS".
TypeScript is first bundled, with what it imports from its tree, by
jsbundle/main.go (esbuild's Go API, the library premise transpiles with;
Node 20 runs no TypeScript and nothing is installed from npm).
`measure` runs `premise run --base HEAD~1 --head HEAD --model static --json
--quiet --out FRESH` on each cut and reports the catch rate (breaking: a
behaviour change on the case's symbol), false alarms (benign: any behaviour
change) and the evidence rows per case with the `why` of symbols that got none.
"""
import argparse
import collections
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
MANIFEST = os.path.join(HERE, "cases.json")
LANGS = ("python", "go", "javascript", "typescript")
ENV = dict(os.environ, GIT_AUTHOR_NAME="corpus", GIT_AUTHOR_EMAIL="corpus@example.invalid",
           GIT_COMMITTER_NAME="corpus", GIT_COMMITTER_EMAIL="corpus@example.invalid",
           GIT_AUTHOR_DATE="2000-01-01T00:00:00Z", GIT_COMMITTER_DATE="2000-01-01T00:00:00Z")


def manifests():
    """cases.json and every cases-*.json beside it, in a fixed order."""
    import glob
    return [MANIFEST] + sorted(glob.glob(os.path.join(HERE, "cases-*.json")))


def load_cases(only=None):
    cases = []
    for path in manifests():
        with open(path) as f:
            cases += json.load(f)["cases"]
    ids = [c["id"] for c in cases]
    dup = [i for i, n in collections.Counter(ids).items() if n > 1]
    if dup:
        sys.exit("duplicate case ids: %s" % dup)
    odd = [c["id"] for c in cases if c["lang"] not in LANGS]
    if odd:
        sys.exit("cases of no known lang (%s): %s" % ("/".join(LANGS), odd))
    if only:
        want = set(only.split(","))
        cases = [c for c in cases if c["id"] in want]
    return cases


def mirror(mirrors, repo):
    d = os.path.join(mirrors, repo.replace("/", "+"))
    for cand in (os.path.join(d, "repo"), d):
        if os.path.isdir(cand):
            return cand
    sys.exit("no mirror for %s under %s (fetch github:%s)" % (repo, mirrors, repo))


def git(gitdir, *args, **kw):
    return subprocess.run(["git", "--git-dir", gitdir] + list(args), check=True,
                          stdout=subprocess.PIPE, **kw).stdout


def export(gitdir, commit, src, dest):
    """Copy upstream path src (file or directory) at commit to dest."""
    kind = "tree" if src == "." else git(gitdir, "cat-file", "-t", "%s:%s" % (commit, src)).decode().strip()
    if kind == "blob":
        os.makedirs(os.path.dirname(dest) or ".", exist_ok=True)
        with open(dest, "wb") as f:
            f.write(git(gitdir, "show", "%s:%s" % (commit, src)))
        return
    tar = git(gitdir, "archive", "--format=tar", commit, *([] if src == "." else [src]))
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(["tar", "-x", "-C", tmp], input=tar, check=True)
        shutil.copytree(os.path.join(tmp, src), dest, dirs_exist_ok=True)


def mapped(case, path):
    """Where upstream path lands in the cut repo (the longest tree prefix)."""
    best = None
    for src, dst in case["tree"]:
        if path == src or path.startswith(src.rstrip("/") + "/"):
            if best is None or len(src) > len(best[0]):
                best = (src, dst)
    if best is None and any(src == "." for src, _ in case["tree"]):
        best = (".", [dst for src, dst in case["tree"] if src == "."][0])
    if best is None:
        sys.exit("%s: file %s is outside its tree" % (case["id"], path))
    src, dst = best
    return os.path.normpath(os.path.join(dst, os.path.relpath(path, src)))


def cut_one(mirrors, out, case):
    gitdir = mirror(mirrors, case["repo"])
    d = os.path.join(out, case["id"])
    if os.path.exists(d):
        shutil.rmtree(d)
    os.makedirs(d)
    for src, dst in case["tree"]:
        export(gitdir, case["base"], src, os.path.join(d, dst))
    for name, text in case.get("extra", {}).items():  # e.g. a go.mod for a GOPATH-era package
        with open(os.path.join(d, name), "w") as f:
            f.write(text)
    run = lambda *a: subprocess.run(list(a), cwd=d, env=ENV, check=True,
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    run("git", "init", "-q", "-b", "main")
    # -f: every file here is one upstream tracks (or the case's extra), even
    # when the tree's own .gitignore names it (a generated version.py, a
    # command's binary name that is also its package directory)
    run("git", "add", "-A", "-f")
    run("git", "commit", "-q", "-m", "base: %s@%s" % (case["repo"], case["base"]))
    for f in case["files"]:
        dest = os.path.join(d, mapped(case, f))
        try:
            export(gitdir, case["head"], f, dest)
        except subprocess.CalledProcessError:  # removed on the head side
            os.remove(dest)
    run("git", "add", "-A", "-f")
    run("git", "commit", "-q", "--allow-empty", "-m", "head: %s from %s@%s" % (" ".join(case["files"]), case["repo"], case["head"]))
    return d


def ensure_cut(mirrors, out, case):
    d = os.path.join(out, case["id"])
    if not os.path.isdir(os.path.join(d, ".git")):
        cut_one(mirrors, out, case)
    return d


# ---- witness: the case's call on both sides, outside premise ----

PY_WITNESS = r"""
import importlib, sys
sys.path.insert(0, sys.argv[1])
mod = importlib.import_module(sys.argv[2])
ns = dict(vars(mod))
try:
    v = eval(sys.argv[3], ns)
    if hasattr(v, "__next__") or type(v).__name__ in ("generator", "map", "filter", "zip"):
        v = list(v)
    import re
    print(re.sub(r" @ (0x)?[0-9a-f]+", "", repr(v)))  # object addresses vary per run
except Exception as e:
    print("raises " + type(e).__name__)
"""

GO_WITNESS = """package main

import (
	"fmt"
%(imports)s)

func main() {
	defer func() {
		if r := recover(); r != nil {
			fmt.Println("panic")
		}
	}()
	fmt.Printf("%%#v\\n", %(call)s)
}
"""


def side_tree(d, rev):
    tmp = tempfile.mkdtemp(prefix="corpus-side-")
    tar = subprocess.run(["git", "-C", d, "archive", "--format=tar", rev], check=True,
                         stdout=subprocess.PIPE).stdout
    subprocess.run(["tar", "-x", "-C", tmp], input=tar, check=True)
    return tmp


def witness_py(tree, case, py):
    w = case["witness"]
    r = subprocess.run([py, "-c", PY_WITNESS, tree, w["module"], w["call"]],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=60, cwd=tree,
                       env=dict(os.environ, PYTHONHASHSEED="0"))
    if r.returncode != 0:
        return "error: " + r.stderr.strip().splitlines()[-1] if r.stderr.strip() else "error"
    return r.stdout.strip()


def go_module_path(tree):
    with open(os.path.join(tree, "go.mod")) as f:
        for line in f:
            if line.startswith("module "):
                return line.split()[1].strip()
    raise SystemExit("no module line in %s/go.mod" % tree)


def witness_go(tree, case):
    w = case["witness"]
    mod = go_module_path(tree)
    imports = "".join('\t%s "%s"\n' % (alias, path) for alias, path in w["imports"].items())
    main = tempfile.mkdtemp(prefix="corpus-gowit-")
    # a module path ending in /vN (N >= 2) needs a vN version in require
    import re
    major = re.search(r"/v([2-9]|[1-9][0-9]+)$", mod)
    gopkgin = re.match(r"gopkg\.in/.*\.v([0-9]+)$", mod)  # gopkg.in/ini.v1 wants a v1 version
    version = "v%s.0.0" % major.group(1) if major else "v%s.0.0" % gopkgin.group(1) if gopkgin else "v0.0.0"
    with open(os.path.join(main, "go.mod"), "w") as f:
        f.write("module corpuswitness\n\ngo 1.22\n\nrequire %s %s\n\nreplace %s => %s\n" % (mod, version, mod, tree))
    with open(os.path.join(main, "main.go"), "w") as f:
        f.write(GO_WITNESS % {"imports": imports, "call": w["call"]})
    env = dict(os.environ, GOFLAGS="-mod=mod", GOWORK="off")
    r = subprocess.run(["go", "run", "."], cwd=main, env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, timeout=300)
    shutil.rmtree(main, ignore_errors=True)
    if r.returncode != 0:
        lines = [l for l in r.stderr.strip().splitlines() if l.strip()]
        return "error: " + (lines[-1] if lines else "go run failed")
    return r.stdout.strip()


JS_WITNESS = r"""
import { createRequire } from "node:module";
import { inspect } from "node:util";
import { pathToFileURL } from "node:url";
const [file, call] = process.argv.slice(-2);
const show = (v) => inspect(v, { depth: null, breakLength: Infinity, maxArrayLength: null, maxStringLength: null });
const require = createRequire(file);
let m;
try {
  m = require(file);
} catch (e) {
  if (e && e.code === "ERR_REQUIRE_ESM") m = await import(pathToFileURL(file).href);
  else { console.log("error: " + (e && e.message ? e.message.split("\n")[0] : String(e))); process.exit(0); }
}
let out;
try {
  let v = new Function("m", "require", "return (" + call + ");")(m, require);
  if (v && typeof v.then === "function") v = await v;
  out = show(v);
} catch (e) {
  out = "throws " + (e !== null && e !== undefined && e.constructor ? e.constructor.name : typeof e);
}
process.stdout.write("\n@@witness " + out + "\n");
"""

_JSBUNDLE = []


def jsbundle():
    """Build bench/corpus/jsbundle once per run (esbuild's Go API, already a
    dependency of premise's module)."""
    if not _JSBUNDLE:
        exe = os.path.join(tempfile.mkdtemp(prefix="corpus-jsbundle-"), "jsbundle")
        subprocess.run(["go", "build", "-o", exe, "./bench/corpus/jsbundle"], check=True,
                       cwd=os.path.dirname(os.path.dirname(HERE)))
        _JSBUNDLE.append(exe)
    return _JSBUNDLE[0]


def witness_js(tree, case):
    w = case["witness"]
    file = os.path.join(tree, w["module"])
    if case["lang"] == "typescript" or file.endswith((".ts", ".mts", ".cts", ".tsx")):
        out = os.path.join(tree, "corpus-witness-bundle.mjs")
        r = subprocess.run([jsbundle(), file, out], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if r.returncode != 0:
            return "error: bundle: " + (r.stderr.strip().splitlines() or ["failed"])[0]
        file = out
    r = subprocess.run(["node", "--input-type=module", "-e", JS_WITNESS, file, w["call"]],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=60, cwd=tree,
                       env=dict(os.environ, TZ="UTC"))
    at = r.stdout.rfind("\n@@witness ")
    if r.returncode != 0 or at < 0:
        err = [l for l in (r.stdout + "\n" + r.stderr).strip().splitlines() if l.strip()]
        return "error: " + (err[-1] if err else "node exited %d" % r.returncode)
    # util.inspect still breaks a long string holding newlines over lines:
    # the witness is everything after the mark, not its first line.
    return r.stdout[at + len("\n@@witness "):].rstrip("\n")


def witness_side(tree, case, py):
    if case["lang"] == "python":
        return witness_py(tree, case, py)
    if case["lang"] in ("javascript", "typescript"):
        return witness_js(tree, case)
    return witness_go(tree, case)


def witness(args):
    cases = load_cases(args.only)
    case_rec = {}
    bad = 0
    for case in cases:
        d = ensure_cut(args.mirrors, args.out, case)
        seen = {}
        for side, rev in (("base", "HEAD~1"), ("head", "HEAD")):
            tree = side_tree(d, rev)
            try:
                seen[side] = witness_side(tree, case, args.python)
            finally:
                shutil.rmtree(tree, ignore_errors=True)
        if args.record:
            case_rec[case["id"]] = seen
        want = case.get("seen", {})
        # Manifests recorded before the whole output was kept hold its first line.
        ok = all(seen[s] == want.get(s) or seen[s].split("\n")[0] == want.get(s) for s in seen)
        differs = seen["base"] != seen["head"]
        # the claim: breaking cases differ on the witness, benign ones do not
        claim = differs if case["kind"] == "breaking" else not differs
        status = "ok" if ok and claim else "MISMATCH"
        if status != "ok":
            bad += 1
        print("%-8s %-9s %-38s base=%s head=%s" % (status, case["kind"], case["id"], seen["base"], seen["head"]))
        if not ok:
            print("         recorded base=%s head=%s" % (want.get("base"), want.get("head")))
    print("witnesses: %d cases, %d hold, %d mismatch" % (len(cases), len(cases) - bad, bad))
    if args.record and case_rec:  # write what was seen into the manifests (new cases)
        for path in manifests():
            with open(path) as f:
                m = json.load(f)
            hit = [c for c in m["cases"] if c["id"] in case_rec]
            for c in hit:
                c["seen"] = case_rec[c["id"]]
            if hit:
                with open(path, "w") as f:
                    json.dump(m, f, indent=1, ensure_ascii=False)
                    f.write("\n")
    return 1 if bad else 0


# ---- measure: premise run on each cut ----

def matches(sym, want):
    return sym == want or sym.endswith("." + want)


def measure(args):
    cases = load_cases(args.only)
    results = []
    for case in cases:
        d = ensure_cut(args.mirrors, args.out, case)
        # a run by hand in the cut leaves a register that would change this one
        subprocess.run(["git", "-C", d, "clean", "-fdxq"], check=True)
        outdir = tempfile.mkdtemp(prefix="corpus-out-")
        cmd = [args.premise, "run", "--repo", d, "--base", "HEAD~1", "--head", "HEAD", "--model", "static",
               "--json", "--quiet", "--out", outdir, "--python", args.python]
        started = time.monotonic()
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=900)
        seconds = round(time.monotonic() - started, 1)
        shutil.rmtree(outdir, ignore_errors=True)
        res = {"id": case["id"], "kind": case["kind"], "lang": case["lang"], "repo": case["repo"],
               "symbol": case["symbol"], "exit": r.returncode, "seconds": seconds}
        try:
            j = json.loads(r.stdout)
        except ValueError:
            j = None
            res["error"] = (r.stderr.strip().splitlines() or ["no JSON"])[-1][:300]
        if j is not None:
            changes = (j.get("behavior_changes") or []) + (j.get("unexplained_changes") or [])
            syms = j.get("evidence_symbols") or []
            res["rows"] = j.get("evidence_rows", 0)
            res["changes"] = len(changes)
            res["changed_symbols"] = sorted({c.get("symbol", "") for c in changes})
            # A change counts for the case's symbol when it is on the symbol
            # or on a caller premise ran because it reaches the symbol.
            reaches = {s.get("symbol", ""): s.get("reads") or [] for s in syms}
            res["hit"] = any(matches(c.get("symbol", ""), case["symbol"]) or
                             any(matches(r, case["symbol"]) for r in reaches.get(c.get("symbol", ""), []))
                             for c in changes)
            # a harness that fails to build leaves the planned count in
            # evidence_symbols but runs nothing: count rows only when some ran
            res["skipped"] = j.get("evidence_skipped") or []
            ran = res["rows"] > 0
            res["symbol_rows"] = sum(s.get("rows", 0) for s in syms if ran and matches(s.get("symbol", ""), case["symbol"]))
            res["why"] = {s["symbol"]: s.get("why", "") for s in syms if not s.get("rows")}
            if not ran:
                for s in syms:
                    if s.get("rows"):
                        first = (res["skipped"] or j.get("head_broken") or ["?"])[0]
                        res["why"][s["symbol"]] = "rows planned, none ran: " + first
            if not syms:
                res["why"]["(none)"] = "no changed function in the diff (only module-level data or none)"
            res["head_broken"] = j.get("head_broken") or []
            res["example"] = next(({"input": c.get("input"), "base": c.get("base"), "head": c.get("head")}
                                   for c in changes if matches(c.get("symbol", ""), case["symbol"])), None)
            # Which sources made the inputs that showed a change, and how
            # many rows each source gave the case's symbol (sources mode).
            res["change_sources"] = sorted({c.get("heuristic") or "?" for c in changes})
            # Changed-line coverage of all the patch's symbols: the lines that
            # are code (head's added, base's removed) and those a row ran.
            res["lines"] = [sum(((s.get("coverage") or {}).get(side) or {}).get(k, 0)
                                for s in syms for side in ("head", "base")) for k in ("changed", "reached")]
            res["symbol_sources"] = {}
            for s in syms:
                if matches(s.get("symbol", ""), case["symbol"]):
                    for k, n in (s.get("sources") or {}).items():
                        res["symbol_sources"][k] = res["symbol_sources"].get(k, 0) + n
        results.append(res)
        if res.get("error"):
            line = "exit %d: %s" % (r.returncode, res["error"])
        else:
            line = "rows=%d sym_rows=%d changes=%d%s" % (res["rows"], res["symbol_rows"], res["changes"],
                                                         " on " + ",".join(res["changed_symbols"]) if res["changes"] else "")
        verdict = ""
        if case["kind"] == "breaking":
            verdict = "CAUGHT" if res.get("hit") else "missed"
        else:
            verdict = "FALSE-ALARM" if res.get("changes") else "quiet"
        print("%-11s %-38s exit=%d %s" % (verdict, case["id"], r.returncode, line), flush=True)
        for s in res.get("skipped") or []:
            print("            skipped: %s" % s[:300])
        for s in res.get("head_broken") or []:
            print("            head broken: %s" % s[:300])
        for s, why in (res.get("why") or {}).items():
            print("            no rows: %s: %s" % (s, why[:200]))
    summarize(results)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
    return 0


def sources_table(results):
    """Per input source: the caught breaking cases with a change from it
    (and those caught by it alone), the benign cases it flagged, and the
    rows it gave the cases' symbols: which sources earn their keep."""
    if not any("change_sources" in r for r in results):
        sys.exit("no change_sources in this file: measure it with this cut.py")
    stats = collections.defaultdict(lambda: {"caught": 0, "alone": 0, "flagged": 0, "rows": 0, "cases": 0})
    for r in results:
        srcs = r.get("change_sources") or []
        for k, n in (r.get("symbol_sources") or {}).items():
            stats[k]["rows"] += n
            stats[k]["cases"] += 1
        if r["kind"] == "breaking" and r.get("hit"):
            for k in srcs:
                stats[k]["caught"] += 1
            if len(srcs) == 1:
                stats[srcs[0]]["alone"] += 1
        if r["kind"] == "benign" and r.get("changes"):
            for k in srcs:
                stats[k]["flagged"] += 1
    caught = sum(1 for r in results if r["kind"] == "breaking" and r.get("hit"))
    print("%-15s %8s %6s %8s %8s %6s" % ("source", "caught", "alone", "flagged", "rows", "cases"))
    for k, v in sorted(stats.items(), key=lambda kv: (-kv[1]["caught"], -kv[1]["rows"])):
        print("%-15s %8d %6d %8d %8d %6d" % (k, v["caught"], v["alone"], v["flagged"], v["rows"], v["cases"]))
    print("(%d breaking cases caught; a case counts once for each source among its changes)" % caught)


def summarize(results):
    br = [r for r in results if r["kind"] == "breaking"]
    be = [r for r in results if r["kind"] == "benign"]
    caught = [r for r in br if r.get("hit")]
    alarms = [r for r in be if r.get("changes")]
    exercised = [r for r in be if r.get("rows", 0) >= 10]
    print()
    for lang in ("python", "go", "javascript", "typescript"):
        b = [r for r in br if r["lang"] == lang]
        n = [r for r in be if r["lang"] == lang]
        if not b and not n:
            continue
        print("%-6s breaking caught %d/%d; benign false alarms %d/%d, >=10 rows %d/%d" % (
            lang, sum(1 for r in b if r.get("hit")), len(b), sum(1 for r in n if r.get("changes")), len(n),
            sum(1 for r in n if r.get("rows", 0) >= 10), len(n)))
    print("all    breaking caught %d/%d; benign false alarms %d/%d, >=10 rows %d/%d" % (
        len(caught), len(br), len(alarms), len(be), len(exercised), len(be)))
    lc = sum((r.get("lines") or [0, 0])[0] for r in results)
    lr = sum((r.get("lines") or [0, 0])[1] for r in results)
    if lc:
        print("changed lines that are code, all cases: %d; a row ran: %d (%.0f%%)" % (lc, lr, 100.0 * lr / lc))
    timed = sorted((r["seconds"], r["id"]) for r in results if "seconds" in r)
    if timed:
        print("premise run: median %.1f s, slowest %.1f s (%s), past 60 s: %d" % (
            timed[len(timed) // 2][0], timed[-1][0], timed[-1][1], sum(1 for t in timed if t[0] > 60)))
    print("breaking cases showing a change on any symbol of the patch: %d/%d" % (
        sum(1 for r in br if r.get("changes")), len(br)))
    print("breaking cases whose symbol got >=1 row: %d/%d" % (sum(1 for r in br if r.get("symbol_rows", 0) > 0), len(br)))
    missed = collections.Counter()
    for r in br:
        if not r.get("hit"):
            missed[category(case_reason(r))] += 1
    if missed:
        print("why the missed breaking cases were missed (the case's own symbol, one per case):")
        for why, n in missed.most_common():
            print("  %3d  %s" % (n, why))
    reasons, cats = collections.Counter(), collections.Counter()
    for r in results:
        for why in (r.get("why") or {}).values():
            reasons[short_reason(why)] += 1
            cats[category(why)] += 1  # the whole reason: its kind may lie past the cut
        if r.get("error"):
            reasons["run error: " + short_reason(r["error"])] += 1
            cats[category("run error: " + r["error"])] += 1
    if reasons:
        print("why symbols got no rows, by kind (symbol count):")
        for why, n in cats.most_common():
            print("  %3d  %s" % (n, why))
        print("why symbols got no rows, in detail:")
        for why, n in reasons.most_common():
            print("  %3d  %s" % (n, why))


def short_reason(why):
    """A reason without the symbol-specific detail, for tallies."""
    import re
    why = re.sub(r'"[^"]*"', '"…"', why)
    why = re.sub(r"`[^`]*`", "`…`", why)
    why = re.sub(r"\b[\w./-]+\.(py|go|[cm]?[jt]sx?)\b", "FILE", why)
    why = re.sub(r"\b\w+ is not exported", "X is not exported", why)
    why = re.sub(r"_premise_harness_\d+", "_premise_harness_N", why)
    why = re.sub(r"exit status 1: (# \S+ )?\./\S+:\d+:\d+: ", "", why)  # keep the compiler's message
    why = re.sub(r"for [\w./]+\.\w+:", "for SYMBOL:", why)
    why = re.sub(r"-lang was set to go1\.\d+", "-lang was set to go1.x", why)
    return why[:140]


def case_reason(r):
    """Why a case's own symbol showed no behaviour change."""
    if r.get("error"):
        return r["error"]
    for sym, why in (r.get("why") or {}).items():
        if matches(sym, r["symbol"]):
            return why
    if r.get("symbol_rows", 0) > 0:
        return "rows ran on it, none differed"
    if "(none)" in (r.get("why") or {}):
        return r["why"]["(none)"]
    return "the symbol is not among evidence_symbols"


def category(why):
    """The reason's kind, for the coarse tally: what to fix first."""
    rules = [
        # JavaScript and TypeScript first: their wording shares words with
        # the Go and Python rules below ("not exported", "method")
        ("premise's worker calls what a module exports", "JS/TS: not exported from its module (the worker calls exports)"),
        ("in the module's exports", "JS/TS: exported, but the worker does not find the name (module.exports is the function or class itself)"),
        ("Cannot find module", "JS/TS: imports a package the tree does not hold (no node_modules)"),
        ("Cannot find package", "JS/TS: imports a package the tree does not hold (no node_modules)"),
        ("method", "a method: no receiver can be built"),
        ("not exported", "Go: an unexported function in the diff aborts the run (exit 3)"),
        ("predeclared any", "Go: the harness needs go >= 1.18, the module's go.mod is older"),
        ("no value could be built", "a parameter premise cannot build a value for"),
        ("its file is new", "new (no base to compare with)"),
        ("added:", "new (no base to compare with)"),
        ("a class, not a function", "a class, not a function"),
        ("no parameters", "takes no parameters"),
        ("no changed function", "only module-level data changed"),
        ("ModuleNotFoundError", "does not import here (a missing dependency)"),
        ("deleted", "deleted"),
        ("none differed", "rows ran on it, none differed (values too simple to reach the bug)"),
    ]
    for needle, name in rules:
        if needle in why:
            return name
    return "other: " + why[:100]


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="mode", required=True)
    for name in ("cut", "witness", "measure"):
        s = sub.add_parser(name)
        s.add_argument("mirrors")
        s.add_argument("out")
        if name == "measure":
            s.add_argument("premise")
            s.add_argument("--json", help="write per-case results here")
        s.add_argument("--python", default=shutil.which("python3"))
        s.add_argument("--only", help="comma-separated case ids")
        if name == "witness":
            s.add_argument("--record", action="store_true", help="write the outputs seen into the manifest holding each case")
    s = sub.add_parser("sources", help="which input sources found the changes of a measure --json file")
    s.add_argument("json")
    s = sub.add_parser("summary", help="re-read a measure --json file")
    s.add_argument("json_file")
    args = p.parse_args()
    if args.mode == "sources":
        with open(args.json) as f:
            sources_table(json.load(f))
        return 0
    if args.mode == "summary":
        with open(args.json_file) as f:
            summarize(json.load(f))
        return 0
    # premise wants the real interpreter, not a pyenv shim
    args.python = subprocess.run([args.python or "python3", "-c", "import sys; print(sys.executable)"],
                                 stdout=subprocess.PIPE, text=True, check=True).stdout.strip()
    if args.mode == "cut":
        os.makedirs(args.out, exist_ok=True)
        for case in load_cases(args.only):
            print(cut_one(args.mirrors, args.out, case))
        return 0
    os.makedirs(args.out, exist_ok=True)
    if args.mode == "witness":
        return witness(args)
    return measure(args)


if __name__ == "__main__":
    sys.exit(main())
