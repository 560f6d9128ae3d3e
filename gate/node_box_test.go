package gate

import (
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The box of issue 26 holds for the Node worker as for the Python one
// (box_test.go): each attack is what a head could write after reading the
// worker, and each must fail inside the box.

// callNode runs target in a Node worker in dir, with env as premise's own
// environment, and returns its reply.
func callNode(t *testing.T, dir string, env []string, target string, args ...any) Reply {
	t.Helper()
	needNode(t)
	a, err := NewNodeAdapter(NodeConfig{Dir: dir, Timeout: 10 * time.Second, Env: env, Private: true})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	r, err := a.Call(context.Background(), Call{ID: "P1", Target: target, Args: args})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestNodeBoxIsReadOnlyOutsideTheCopy: the subject cannot write a judged
// file outside its copy; it can write its copy and its scratch directory.
func TestNodeBoxIsReadOnlyOutsideTheCopy(t *testing.T) {
	needBox(t, Sealed(), "sealed mount namespace")
	outside := filepath.Join(t.TempDir(), "partitions.yaml")
	if err := os.WriteFile(outside, []byte("judged\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := writeTree(t, map[string]string{"w.mjs": `
import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
export function write(p) {
  return [p, join(process.cwd(), "mine.txt"), join(tmpdir(), "scratch.txt")].map((f) => {
    try { writeFileSync(f, "subject"); return "wrote"; } catch { return "refused"; }
  });
}
`})
	got := callNode(t, dir, nil, "w.write", outside)
	if string(got.Raw) != `["refused","wrote","wrote"]` {
		t.Errorf("writes (judged file, own copy, scratch) = %s %+v (%s), want refused, wrote, wrote", got.Raw, got.Exc, got.Detail)
	}
	if b, _ := os.ReadFile(outside); string(b) != "judged\n" {
		t.Errorf("attack: the file outside the copy now holds %q", b)
	}
}

// TestNodeBoxHasNoNetwork: a listener on the host's loopback answers a
// plain node; the subject in the box cannot reach it.
func TestNodeBoxHasNoNetwork(t *testing.T) {
	needBox(t, Isolated(), "network namespace")
	port := hostListener(t)
	src := `
import { connect } from "node:net";
export function reach(port) {
  return new Promise((resolve) => {
    const s = connect(Number(port), "127.0.0.1");
    s.setTimeout(3000, () => { s.destroy(); resolve("timeout"); });
    s.on("data", (d) => { s.destroy(); resolve("reached: " + String(d).trim()); });
    s.on("error", (e) => resolve("refused: " + e.code));
  });
}
`
	dir := writeTree(t, map[string]string{"n.mjs": src, "main.mjs": `import { reach } from "./n.mjs"; console.log(await reach(process.argv[2]));`})
	// Control: the same code outside premise reaches the listener.
	cmd := exec.Command("node", "main.mjs", port)
	cmd.Dir = dir
	if out, err := cmd.Output(); err != nil || !strings.HasPrefix(string(out), "reached: secret") {
		t.Fatalf("control: %q, %v; want the listener reached", out, err)
	}
	got := callNode(t, dir, nil, "n.reach", port)
	if got.Outcome != OutcomeReturned || strings.Contains(string(got.Raw), "reached") {
		t.Errorf("attack: the subject reached the host's network: %s %s", got.Outcome, got.Raw)
	}
}

// TestNodeBoxHidesSecrets: a secret in premise's environment (a model key,
// a CI token) and NODE_OPTIONS, which would load a file of the head's into
// the worker, never reach it; HOME and TMPDIR are apart.
func TestNodeBoxHidesSecrets(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"e.cjs":    `exports.env = () => [process.env.PREMISE_TEST_TOKEN ?? "none", process.env.OPENAI_API_KEY ?? "none", String(globalThis.PRELOADED ?? "none"), process.env.HOME === process.env.TMPDIR];`,
		"pre.cjs":  `globalThis.PRELOADED = "preloaded";`,
		"pkg.json": `{}`,
	})
	env := append(os.Environ(), "PREMISE_TEST_TOKEN=s3cret", "OPENAI_API_KEY=sk-test", "NODE_OPTIONS=--require "+filepath.Join(dir, "pre.cjs"))
	got := callNode(t, dir, env, "e.env")
	if string(got.Raw) != `["none","none","none",false]` {
		t.Errorf("the subject saw %s (%s); want no secret, no preload, HOME apart from TMPDIR", got.Raw, got.Detail)
	}
}

// TestNodeWorkerCannotBeShadowed: a head that adds fs.js, util.mjs,
// node_modules/fs and a package.json mapping imports at the top of its
// tree replaces nothing the worker runs on (it imports node: built-ins
// from evaluated source), and a subject that patches JSON.stringify,
// Object.keys and Map's iterator before returning cannot rewrite its
// reply through them.
func TestNodeWorkerCannotBeShadowed(t *testing.T) {
	shadow := `globalThis.SHADOWED = (globalThis.SHADOWED || 0) + 1; module.exports = {};`
	dir := writeTree(t, map[string]string{
		"package.json":              `{"type": "commonjs", "imports": {"#fs": "./fs.js"}}`,
		"fs.js":                     shadow,
		"util.js":                   shadow,
		"path.js":                   shadow,
		"node_modules/fs/index.js":  shadow,
		"node_modules/url/index.js": shadow,
		"s.js": `
exports.who = () => globalThis.SHADOWED ?? 0;
exports.lie = () => {
  JSON.stringify = () => '{"id":"P1","outcome":"returned","value":"forged"}';
  Object.keys = () => [];
  Map.prototype.entries = function* () { yield ["forged", 1]; };
  return new Map([["real", 2]]);
};
`,
	})
	if got := callNode(t, dir, nil, "s.who"); string(got.Raw) != "0" {
		t.Errorf("attack: the worker loaded the head's shadows: %s (%s)", got.Raw, got.Detail)
	}
	needNode(t)
	a, err := NewNodeAdapter(NodeConfig{Dir: dir, Timeout: 10 * time.Second, Private: true})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	for i := range 2 {
		got, err := a.Call(context.Background(), Call{ID: "L" + strconv.Itoa(i), Target: "s.lie"})
		if err != nil {
			t.Fatal(err)
		}
		if string(got.Raw) != `{"$map":[["real",2]]}` {
			t.Errorf("call %d: attack: the subject rewrote its reply: %s %s (%s)", i, got.Outcome, got.Raw, got.Detail)
		}
	}
}

// TestNodeSubjectIsNotInit: the subject is not PID 1, so a head that kills
// itself on the differing input is seen to die.
func TestNodeSubjectIsNotInit(t *testing.T) {
	dir := writeTree(t, map[string]string{"s.mjs": `
export const pid = () => process.pid !== 1;
export function die() { process.kill(process.pid, "SIGKILL"); return "alive"; }
`})
	if got := callNode(t, dir, nil, "s.pid"); string(got.Raw) != "true" {
		t.Errorf("the subject is PID 1: %+v", got)
	}
	if got := callNode(t, dir, nil, "s.die"); got.Outcome != OutcomeCrashed {
		t.Errorf("a subject that killed itself: %s %s (%s), want crashed", got.Outcome, got.Raw, got.Detail)
	}
}

// TestNodeWorkerTells: the subject finds no protocol arguments in argv or
// execArgv, no fd among the low ones it would probe first, and a child it
// starts inherits no protocol fd.
func TestNodeWorkerTells(t *testing.T) {
	dir := writeTree(t, map[string]string{"t.mjs": `
import { fstatSync, readdirSync } from "node:fs";
import { execFileSync } from "node:child_process";
export function tells(premises) {
  const out = [];
  if (process.argv.length > 1) out.push("argv " + process.argv.join(" "));
  if (process.execArgv.length > 0) out.push("execArgv " + process.execArgv.length);
  const mine = new Set(readdirSync("/proc/self/fd"));
  const child = execFileSync("ls", ["/proc/self/fd"], { encoding: "utf8" }).split("\n").filter(Boolean);
  for (const fd of child) if (Number(fd) > 3 && mine.has(fd) && !premises.includes(fd)) out.push("child inherits fd " + fd);
  return out;
}
`})
	// What premise's own process was started with (a CI runner's fds)
	// reaches every process it starts; that is not the worker's.
	var premises []any
	if ents, err := os.ReadDir("/proc/self/fd"); err == nil {
		for _, e := range ents {
			premises = append(premises, e.Name())
		}
	}
	if got := callNode(t, dir, nil, "t.tells", premises); string(got.Raw) != "[]" {
		t.Errorf("tells: %s %+v (%s)", got.Raw, got.Exc, got.Detail)
	}
}

// hostListener listens on the host's loopback, answering "secret" to
// whoever connects until the test ends, and returns its port.
func hostListener(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			_, _ = c.Write([]byte("secret\n"))
			c.Close()
		}
	}()
	return strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
}

// TestNodePrivateFunctionsCallAfterCall: a worker reaches a function its
// module keeps to itself on every call, not on its first alone. The box
// ends a call by killing what it left behind; Node takes a kill of -1 for
// its own end and ends the inspector's view of its context, through which
// the worker finds such functions, so a kill of -1 after each call left
// every private function but the first "unreached" (fast-sort's sort and
// multiPropertySorter, one module).
func TestNodePrivateFunctionsCallAfterCall(t *testing.T) {
	needBox(t, Isolated(), "PID namespace")
	needNode(t)
	dir := writeTree(t, map[string]string{"sorter.js": `
const twice = function (n) { return n * 2; };
const thrice = function (n) { return n * 3; };
exports.both = (n) => twice(n) + thrice(n);
`})
	a, err := NewNodeAdapter(NodeConfig{Dir: dir, Timeout: 10 * time.Second, Private: true})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	for i, c := range []struct {
		target string
		want   string
	}{{"sorter.twice", "8"}, {"sorter.thrice", "12"}, {"sorter.both", "20"}, {"sorter.twice", "8"}} {
		r, err := a.Call(context.Background(), Call{ID: strconv.Itoa(i), Target: c.target, Args: []any{4}})
		if err != nil {
			t.Fatalf("call %d, %s: %v", i+1, c.target, err)
		}
		if r.Outcome != OutcomeReturned || string(r.Raw) != c.want {
			t.Errorf("call %d, %s(4): %s %s (%s), want returned %s", i+1, c.target, r.Outcome, r.Raw, r.Detail, c.want)
		}
	}
}

// TestNodeFunctionHeldDeeperByItsName: a module-level function no closure
// reads is in no scope the worker can search, but the exports may hold it
// under its own name a level or two down (parsimmon's Parsimmon.Binary =
// {byte: byte}): the worker calls it there. Two functions of that name is
// no answer: the target stays unreached.
func TestNodeFunctionHeldDeeperByItsName(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"lib.js": `
function byte(b) { if (b > 255) throw new RangeError("not a byte"); return b; }
function Lib() {}
Lib.Binary = { byte: byte };
module.exports = Lib;
`,
		"two.js": `
exports.a = { pick: function pick() { return 1; } };
exports.b = { pick: function pick() { return 2; } };
`})
	if got := callNode(t, dir, nil, "lib.byte", 3); got.Outcome != OutcomeReturned || string(got.Raw) != "3" {
		t.Errorf("lib.byte(3): %s %s (%s), want returned 3", got.Outcome, got.Raw, got.Detail)
	}
	if got := callNode(t, dir, nil, "lib.byte", 256); got.Outcome != OutcomeRaised || !strings.Contains(got.Detail, "not a byte") {
		t.Errorf("lib.byte(256): %s %s (%s), want raised RangeError", got.Outcome, got.Raw, got.Detail)
	}
	a, err := NewNodeAdapter(NodeConfig{Dir: dir, Timeout: 10 * time.Second, Private: true})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if got, err := a.Call(context.Background(), Call{ID: "P1", Target: "two.pick"}); err == nil || !strings.Contains(err.Error(), "unreached two.pick") {
		t.Errorf("two.pick, two functions of that name: %s %s (%v), want unreached", got.Outcome, got.Raw, err)
	}
}

// TestNodeThenableReturnedAsItIs: a function that returns an object with
// a then method (a parser combinator's parser: parsimmon's p.then(q) is
// seq(p, q)) returned that object, observed or not; awaiting it called
// its then with a resolver, and the row raised the parser's own error.
func TestNodeThenableReturnedAsItIs(t *testing.T) {
	needNode(t)
	dir := writeTree(t, map[string]string{"p.js": `
function P(n) { this.n = n; }
P.prototype.then = function (next) { if (!(next instanceof P)) throw new TypeError("not a parser"); return new P(this.n + next.n); };
exports.make = (n) => new P(n);
`})
	a, err := NewNodeAdapter(NodeConfig{Dir: dir, Timeout: 10 * time.Second, Private: true})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	for _, kw := range []map[string]any{nil, {"$observe": 20}, {"$observe": 20, "$probes": []any{[]any{1}}}} {
		r, err := a.Call(context.Background(), Call{ID: "P1", Target: "p.make", Args: []any{2}, Kwargs: kw})
		if err != nil {
			t.Fatal(err)
		}
		if r.Outcome != OutcomeReturned || !strings.Contains(string(r.Raw), `"n":2`) {
			t.Errorf("make(2) with %v: %s %s (%s), want the parser returned", kw, r.Outcome, r.Raw, r.Detail)
		}
	}
}
