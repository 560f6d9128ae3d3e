package evidence_test

import (
	"testing"

	"github.com/premise-dev/premise/evidence"
)

// The conformance suite every language of the evidence engine passes, as
// analysistest holds every analyzer: one patch per language holding each
// kind of change the engine must show, run end to end with real workers,
// and the symbol each change must be found on. A new language adds its
// patch here.
//
//   - a changed function over ints, one over text, one over lists;
//   - a method, on receivers built by the type's constructor;
//   - module data changed under an unchanged function that reads it;
//   - a generic (Go) or duck-typed (Python, TypeScript's any) function.
type conformancePatch struct {
	run  func(t *testing.T) *evidence.Report
	want []string // symbols a behaviour change must be found on
	// quiet are symbols whose change keeps behaviour: no change may be
	// reported on them.
	quiet []string
}

var conformance = map[string]conformancePatch{
	"python": {
		run: func(t *testing.T) *evidence.Report {
			return runPatch(t, `LIMIT = 10


def clamp(n):
    return max(0, min(n, 10))


def title(s):
    return s.strip().title()


def uniq(xs):
    return sorted(set(xs))


def cap(n):
    return min(n, LIMIT)


def size(x):
    return len(x)


def double(n):
    return n * 2


class Stack:
    def __init__(self, items):
        self.items = list(items)

    def peek(self):
        return self.items[-1] if self.items else None
`, `LIMIT = 9


def clamp(n):
    return max(0, min(n, 9))


def title(s):
    return s.title()


def uniq(xs):
    return list(dict.fromkeys(xs))


def cap(n):
    return min(n, LIMIT)


def size(x):
    return len(x) if x else 0


def double(n):
    return n + n


class Stack:
    def __init__(self, items):
        self.items = list(items)

    def peek(self):
        return self.items[0] if self.items else None
`)
		},
		want:  []string{"words.clamp", "words.title", "words.uniq", "words.cap", "words.size", "words.Stack.peek"},
		quiet: []string{"words.double"},
	},
	"go": {
		run: func(t *testing.T) *evidence.Report {
			const stack = "\n// Stack holds items.\ntype Stack struct{ items []int }\n\n// NewStack makes a stack of n items.\nfunc NewStack(n int) *Stack {\n\ts := &Stack{}\n\tfor i := 0; i < n; i++ {\n\t\ts.items = append(s.items, i+1)\n\t}\n\treturn s\n}\n"
			base := "package nc\n\nimport \"strings\"\n\n// Limit caps Cap.\nvar Limit = 10\n\n// Clamp keeps n in 0..10.\nfunc Clamp(n int) int { return max(0, min(n, 10)) }\n\n// Title trims and upper-cases.\nfunc Title(s string) string { return strings.ToUpper(strings.TrimSpace(s)) }\n\n// Last is the last item, or 0.\nfunc Last(xs []int) int {\n\tif len(xs) == 0 {\n\t\treturn 0\n\t}\n\treturn xs[len(xs)-1]\n}\n\n// Cap caps n at Limit.\nfunc Cap(n int) int { return min(n, Limit) }\n\n// Double doubles n.\nfunc Double(n int) int { return n * 2 }\n\n// Largest is the largest item.\nfunc Largest[T int | float64 | string](xs []T) T {\n\tvar m T\n\tfor i, x := range xs {\n\t\tif i == 0 || x > m {\n\t\t\tm = x\n\t\t}\n\t}\n\treturn m\n}\n" + stack + "\n// Peek is the top item.\nfunc (s *Stack) Peek() int {\n\tif len(s.items) == 0 {\n\t\treturn -1\n\t}\n\treturn s.items[len(s.items)-1]\n}\n"
			head := "package nc\n\nimport \"strings\"\n\n// Limit caps Cap.\nvar Limit = 9\n\n// Clamp keeps n in 0..10.\nfunc Clamp(n int) int { return max(0, min(n, 9)) }\n\n// Title trims and upper-cases.\nfunc Title(s string) string { return strings.ToUpper(s) }\n\n// Last is the last item, or 0.\nfunc Last(xs []int) int {\n\tif len(xs) == 0 {\n\t\treturn 0\n\t}\n\treturn xs[0]\n}\n\n// Cap caps n at Limit.\nfunc Cap(n int) int { return min(n, Limit) }\n\n// Double doubles n.\nfunc Double(n int) int { return n + n }\n\n// Largest is the largest item.\nfunc Largest[T int | float64 | string](xs []T) T {\n\tvar m T\n\tfor i, x := range xs {\n\t\tif i == 0 || x >= m {\n\t\t\tm = x\n\t\t}\n\t}\n\tif len(xs) > 1 {\n\t\treturn xs[0]\n\t}\n\treturn m\n}\n" + stack + "\n// Peek is the top item.\nfunc (s *Stack) Peek() int {\n\tif len(s.items) == 0 {\n\t\treturn -1\n\t}\n\treturn s.items[0]\n}\n"
			return runGoPatch(t, map[string]string{"nc/nc.go": base}, map[string]string{"nc/nc.go": head})
		},
		want:  []string{"example.com/nc/nc.Clamp", "example.com/nc/nc.Title", "example.com/nc/nc.Last", "example.com/nc/nc.Cap", "example.com/nc/nc.Largest", "example.com/nc/nc.Stack.Peek"},
		quiet: []string{"example.com/nc/nc.Double"},
	},
	"typescript": {
		run: func(t *testing.T) *evidence.Report {
			const stack = "\nexport class Stack {\n  items: number[];\n  constructor(n: number) {\n    this.items = [];\n    for (let i = 0; i < n; i++) this.items.push(i + 1);\n  }\n"
			base := "export const LIMIT = 10;\n\nexport function clamp(n: number): number {\n  return Math.max(0, Math.min(n, 10));\n}\n\nexport function title(s: string): string {\n  return s.trim().toUpperCase();\n}\n\nexport function last(xs: number[]): number {\n  return xs.length ? xs[xs.length - 1] : 0;\n}\n\nexport function cap(n: number): number {\n  return Math.min(n, LIMIT);\n}\n\nexport function double(n: number): number {\n  return n * 2;\n}\n\nexport function size(x: any): number {\n  return x == null ? 0 : x.length;\n}\n" + stack + "  peek(): number {\n    return this.items.length ? this.items[this.items.length - 1] : -1;\n  }\n}\n"
			head := "export const LIMIT = 9;\n\nexport function clamp(n: number): number {\n  return Math.max(0, Math.min(n, 9));\n}\n\nexport function title(s: string): string {\n  return s.toUpperCase();\n}\n\nexport function last(xs: number[]): number {\n  return xs.length ? xs[0] : 0;\n}\n\nexport function cap(n: number): number {\n  return Math.min(n, LIMIT);\n}\n\nexport function double(n: number): number {\n  return n + n;\n}\n\nexport function size(x: any): number {\n  return x == null ? 0 : x.length ?? 0;\n}\n" + stack + "  peek(): number {\n    return this.items.length ? this.items[0] : -1;\n  }\n}\n"
			test := "import { Stack } from './nc';\nit('peeks', () => { expect(new Stack(3).peek()).toBe(3); });\n"
			return runCommits(t, map[string]string{"src/nc.ts": base, "src/nc.test.ts": test}, map[string]string{"src/nc.ts": head}, nil)
		},
		want:  []string{"src/nc.clamp", "src/nc.title", "src/nc.last", "src/nc.cap", "src/nc.size", "src/nc.Stack.peek"},
		quiet: []string{"src/nc.double"},
	},
}

// TestConformance runs each language's patch and holds the engine to it.
func TestConformance(t *testing.T) {
	t.Parallel()
	for langName, p := range conformance {
		t.Run(langName, func(t *testing.T) {
			rep := p.run(t)
			changed := map[string]int{}
			for _, c := range append(rep.Changes, rep.Unexplained...) {
				changed[c.Symbol]++
			}
			for _, s := range p.want {
				if changed[s] == 0 {
					t.Errorf("%s: no change found on %s; changes on %v; symbols %+v", langName, s, changed, rep.Symbols)
				}
			}
			for _, s := range p.quiet {
				if changed[s] > 0 {
					t.Errorf("%s: %d changes on %s, which keeps its behaviour", langName, changed[s], s)
				}
			}
		})
	}
}
