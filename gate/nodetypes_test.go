package gate

import (
	"os"
	"path/filepath"
	"testing"
)

// TestMarkTypeImportsOnlyTypes: only a name the imported file declares
// as a type and as nothing else is marked; a type and value of one name
// (a TypeScript class-like pair), a file that re-exports everything of
// another, and a package import are left as written, and the lines stay.
func TestMarkTypeImportsOnlyTypes(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"types.ts": "export type Box = { v: number };\nexport interface Shape { w: number }\nexport type Pair = [number, number];\nexport const Pair = (a: number, b: number): Pair => [a, b];\nexport function unbox(b: Box): number { return b.v; }\n",
		"all.ts":   "export type Box = { v: number };\nexport * from './types';\n",
		"core.ts":  "export interface $constructor<T> { new (def: T): T }\nexport /*@__NO_SIDE_EFFECTS__*/ function $constructor<T>(name: string): $constructor<T> { return null as any; }\nexport type $ZodType = { kind: string };\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	src := filepath.Join(dir, "main.ts")
	reexport := "export { Box, Shape, B, Pair, $constructor, $ZodType };\n"
	for _, tc := range []struct{ in, want string }{
		{"import { Box, Shape, unbox } from './types';\n", "import { type Box, type Shape, unbox } from './types';\n"},
		{"import {\n  Box as B,\n  Pair,\n} from \"./types.js\";\n", "import {\n  type Box as B,\n  Pair,\n} from \"./types.js\";\n"},
		{"import { Box } from './all';\n", "import { Box } from './all';\n"},
		{"import { Box } from 'types';\n", "import { Box } from 'types';\n"},
		{"import { type Box } from './types';\n", "import { type Box } from './types';\n"},
		{"import { $constructor, $ZodType } from './core';\n", "import { $constructor, type $ZodType } from './core';\n"},
	} {
		if got := string(markTypeImports(src, []byte(tc.in+reexport))); got != tc.want+reexport {
			t.Errorf("markTypeImports(%q) = %q, want %q", tc.in, got, tc.want+reexport)
		}
	}
	// A type nothing re-exports is left to esbuild, which drops its
	// import when no value uses it.
	if in := "import { Box, unbox } from './types';\nexport const f = (b: Box) => unbox(b);\n"; string(markTypeImports(src, []byte(in))) != in {
		t.Errorf("an import of a type the file does not re-export was changed: %q", markTypeImports(src, []byte(in)))
	}
}
