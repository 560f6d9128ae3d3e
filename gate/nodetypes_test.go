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
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	src := filepath.Join(dir, "main.ts")
	for _, tc := range []struct{ in, want string }{
		{"import { Box, Shape, unbox } from './types';\n", "import { type Box, type Shape, unbox } from './types';\n"},
		{"import {\n  Box as B,\n  Pair,\n} from \"./types.js\";\n", "import {\n  type Box as B,\n  Pair,\n} from \"./types.js\";\n"},
		{"import { Box } from './all';\n", "import { Box } from './all';\n"},
		{"import { Box } from 'types';\n", "import { Box } from 'types';\n"},
		{"import { type Box } from './types';\n", "import { type Box } from './types';\n"},
	} {
		if got := string(markTypeImports(src, []byte(tc.in))); got != tc.want {
			t.Errorf("markTypeImports(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
