package javascript

import (
	"github.com/premise-dev/premise/diffparse"
	"github.com/premise-dev/premise/evidence/jssource"
	"github.com/premise-dev/premise/evidence/lang"
)

// Statements are a JavaScript or TypeScript file's statements as V8's
// block coverage sees them run in the Node worker (coverage.go;
// gate/nodecover.go reads a TypeScript file's lines back through
// esbuild's source map): a simple statement's lines, a compound
// statement's header, a function's header counted run when its body ran.
// nil when no tree can be built; a file with a syntax error still counts
// the statements that parse.
func (l *jsLang) Statements(src []byte) []lang.StmtLines {
	if src == nil {
		return nil
	}
	name := "x.js"
	if l.lang == diffparse.LangTypeScript {
		name = "x.ts"
	}
	f, err := jssource.Parse(name, src)
	if err != nil {
		return nil
	}
	defer f.Close()
	out := []lang.StmtLines{}
	for _, s := range f.Statements() {
		out = append(out, lang.StmtLines{First: s.First, Last: s.Last, Def: s.Def})
	}
	return out
}
