package propose

import (
	"strings"
	"testing"
)

// languageOfPath is the language a case file's extension names, for the
// comment its header line is written in.
func languageOfPath(p string) string {
	for _, e := range []string{".ts", ".mts", ".cts", ".tsx"} {
		if strings.HasSuffix(p, e) {
			return "typescript"
		}
	}
	for _, e := range []string{".js", ".mjs", ".cjs", ".jsx"} {
		if strings.HasSuffix(p, e) {
			return "javascript"
		}
	}
	return ""
}

// TestJSRules holds each JavaScript rule to a fixture it drafts on,
// quoting the real diff line and citing the changed symbol, and to the
// near misses it stays quiet on (issue 27, part 4).
func TestJSRules(t *testing.T) {
	const mergeBase = `export function mergeRanges(ranges) {
  const ordered = [...ranges].sort((a, b) => a[0] - b[0]);
  const out = [];
  for (const r of ordered) {
    out.push(r);
  }
  return out;
}
`
	runRuleCases(t, []ruleCase{
		{rule: "js-removed-sort", name: "sorted copy removed", path: "src/ranges.js",
			base: mergeBase,
			head: "export function mergeRanges(ranges) {\n  const out = [];\n  for (const r of ranges) {\n    out.push(r);\n  }\n  return out;\n}\n",
			want: "`ranges` arrives already sorted", evidence: "for (const r of ranges) {"},
		{rule: "js-removed-sort", name: "typescript reduce", path: "src/ranges.ts",
			base: "export const total = (xs: number[]): number => {\n  xs.sort((a, b) => a - b);\n  return xs.reduce((s, x) => s + x, 0);\n};\n",
			head: "export const total = (xs: number[]): number => {\n  return xs.reduce((s, x) => s + x, 0);\n};\n",
			want: "`xs` arrives already sorted", evidence: "return xs.reduce((s, x) => s + x, 0);"},
		{rule: "js-removed-sort", name: "still sorts", path: "src/ranges.js",
			base:   mergeBase,
			head:   "export function mergeRanges(ranges) {\n  const out = [];\n  for (const r of ranges.toSorted((a, b) => a[0] - b[0])) {\n    out.push(r);\n  }\n  return out;\n}\n",
			reason: "the head sorts in another form"},
		{rule: "js-removed-sort", name: "quiet on a test file", path: "src/ranges.test.js",
			base: mergeBase, head: "export function mergeRanges(ranges) {\n  const out = [];\n  for (const r of ranges) {\n    out.push(r);\n  }\n  return out;\n}\n",
			reason: "tests are sources of inputs, not code a reviewer signs"},

		{rule: "js-removed-copy", name: "slice removed, sorted in place", path: "src/median.ts",
			base: "export function median(xs: number[]): number {\n  const s = xs.slice();\n  s.sort((a, b) => a - b);\n  return s[s.length >> 1];\n}\n",
			head: "export function median(xs: number[]): number {\n  xs.sort((a, b) => a - b);\n  return xs[xs.length >> 1];\n}\n",
			want: "callers never reuse `xs` after the call", evidence: "xs.sort((a, b) => a - b);"},
		{rule: "js-removed-copy", name: "spread of an object removed", path: "src/opts.js",
			base: "export function withDefaults(opts) {\n  const o = { ...opts };\n  o.retries = 3;\n  return o;\n}\n",
			head: "export function withDefaults(opts) {\n  opts.retries = 3;\n  return opts;\n}\n",
			want: "callers never reuse `opts` after the call", evidence: "opts.retries = 3;"},
		{rule: "js-removed-copy", name: "copy kept", path: "src/median.js",
			base:   "export function median(xs) {\n  const s = xs.slice();\n  s.sort();\n  return s[0];\n}\n",
			head:   "export function median(xs) {\n  const s = [...xs];\n  s.sort();\n  return s[0];\n}\n",
			reason: "the head still sorts a copy"},

		{rule: "js-loose-equality", name: "=== loosened in a guard", path: "src/find.ts",
			base: "export function find(items: Item[], id: string) {\n  for (const it of items) {\n    if (it.id === id) return it;\n  }\n}\n",
			head: "export function find(items: Item[], id: string) {\n  for (const it of items) {\n    if (it.id == id) return it;\n  }\n}\n",
			want: "the patch loosened `===` to `==`", evidence: "if (it.id == id) return it;"},
		{rule: "js-loose-equality", name: "new != in a ternary", path: "src/m.js",
			head: "export const label = (n) => (n != 0 ? `${n} items` : \"none\");\n",
			want: "`n` and `0` never hold values of different types that `!=` coerces", evidence: "export const label = (n) => (n != 0 ? `${n} items` : \"none\");"},
		{rule: "js-loose-equality", name: "null check idiom", path: "src/m.js",
			head: "export function orZero(x) {\n  if (x == null) return 0;\n  return x;\n}\n", reason: "x == null is the idiom for null or undefined"},
		{rule: "js-loose-equality", name: "typeof", path: "src/m.js",
			head: "export function isStr(x) {\n  if (typeof x == \"string\") return true;\n  return false;\n}\n", reason: "typeof always gives a string"},

		{rule: "js-or-default", name: "numeric option", path: "src/page.ts",
			base: "export function page(opts: Opts) {\n  const limit = opts.limit ?? 10;\n  return limit;\n}\n",
			head: "export function page(opts: Opts) {\n  const limit = opts.limit || 10;\n  return limit;\n}\n",
			want: "`opts.limit` is never 0, \"\", false or NaN when it is given: `||` replaces them with `10`", evidence: "const limit = opts.limit || 10;"},
		{rule: "js-or-default", name: "||= on a string", path: "src/m.js",
			head: "export function greet(name) {\n  name ||= \"world\";\n  return `hi ${name}`;\n}\n",
			want: "`name` is never 0, \"\", false or NaN", evidence: "name ||= \"world\";"},
		{rule: "js-or-default", name: "a logical test", path: "src/m.js",
			head: "export function ok(a, b) {\n  if (a || b) return 1;\n  return a.x > 1 || 0;\n}\n", reason: "a condition, and a boolean left side, are not defaults"},
		{rule: "js-or-default", name: "object default", path: "src/m.js",
			head: "export function opts(o) {\n  const x = o || {};\n  return x;\n}\n", reason: "an object has no falsy values but null and undefined"},

		{rule: "js-dropped-await", name: "await dropped", path: "src/store.ts",
			base: "export async function saveAll(db: Db, rows: Row[]) {\n  for (const r of rows) {\n    await db.insert(r);\n  }\n  return rows.length;\n}\n",
			head: "export async function saveAll(db: Db, rows: Row[]) {\n  for (const r of rows) {\n    db.insert(r);\n  }\n  return rows.length;\n}\n",
			want: "`db.insert(r)` needs no waiting", evidence: "db.insert(r);"},
		{rule: "js-dropped-await", name: "await kept", path: "src/store.js",
			base:   "export async function save(db, r) {\n  await db.insert(r);\n  return 1;\n}\n",
			head:   "export async function save(db, r) {\n  const ok = await db.insert(r);\n  return ok;\n}\n",
			reason: "the call is still awaited"},

		{rule: "js-empty-early-return", name: "empty array", path: "src/ranges.ts",
			base: "export function mergeRanges(ranges: number[][]): number[][] {\n  const out = [ranges[0]];\n  return out;\n}\n",
			head: "export function mergeRanges(ranges: number[][]): number[][] {\n  if (!ranges.length) return [];\n  const out = [ranges[0]];\n  return out;\n}\n",
			want: "an empty `ranges` needs none of the work below: the patch returns `[]` for it at once", evidence: "if (!ranges.length) return [];"},
		{rule: "js-empty-early-return", name: "length === 0 in a block", path: "src/m.js",
			head: "export function first(xs) {\n  if (xs == null || xs.length === 0) {\n    return undefined;\n  }\n  return xs[0];\n}\n",
			want: "an empty `xs` needs none of the work below: the patch returns `undefined`", evidence: "if (xs == null || xs.length === 0) {"},
		{rule: "js-empty-early-return", name: "throws instead", path: "src/m.js",
			head: "export function first(xs) {\n  if (!xs.length) throw new Error(\"empty\");\n  return xs[0];\n}\n", reason: "a refusal is not an early answer"},

		{rule: "js-optional-chain", name: "error becomes undefined", path: "src/user.ts",
			base: "export function cityOf(user: User): string {\n  return user.address.city;\n}\n",
			head: "export function cityOf(user: User): string {\n  return user?.address?.city;\n}\n",
			want: "`user` may be null or undefined here", evidence: "return user?.address?.city;"},
		{rule: "js-optional-chain", name: "new code", path: "src/user.js",
			head: "export function cityOf(user) {\n  return user?.address?.city;\n}\n", reason: "no access threw before: the chain is the code's first word"},
	})
}

// TestJSTestFiles: the names JavaScript and TypeScript projects give their
// tests are test files.
func TestJSTestFiles(t *testing.T) {
	for p, want := range map[string]bool{
		"src/ranges.test.ts": true, "src/ranges.spec.mjs": true, "src/__tests__/ranges.js": true,
		"src/__mocks__/fs.ts": true, "src/ranges.ts": false, "src/testing.js": false, "src/spec.js": false,
	} {
		if got := IsTestFile(p); got != want {
			t.Errorf("IsTestFile(%s) = %v, want %v", p, got, want)
		}
	}
}
