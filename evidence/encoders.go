package evidence

import (
	"strings"

	"github.com/premise-dev/premise/diffparse"
	"github.com/premise-dev/premise/evidence/lang"
)

// addedEncoders are the methods the patch adds through which the worker
// compares a value (lang.Encoder: Go's MarshalJSON) on a type the patch
// does not add: a head that stores a sum one cent short and adds the
// cent back when encoding answers like the base on every row. They are
// not checked, and keep the run from saying the gate holds.
func addedEncoders(res *diffparse.Result, langs lang.Languages) []SymbolRows {
	addedTypes := map[string]bool{}
	for _, f := range res.Files {
		for _, s := range f.Symbols {
			if s.Change == "added" && (s.Kind == "type" || s.Kind == "class") {
				addedTypes[f.Language+"\x00"+s.Local] = true
			}
		}
	}
	var out []SymbolRows
	for _, f := range res.Files {
		enc, ok := langs[f.Language].(lang.Encoder)
		if !ok || f.Excluded != "" {
			continue
		}
		for _, s := range f.Symbols {
			typ, method, ok := strings.Cut(s.Local, ".")
			if !ok || s.Change != "added" || s.Kind != "method" || !enc.EncodesThrough(method) || addedTypes[f.Language+"\x00"+typ] {
				continue
			}
			// Named apart from the method's own rows, which its coverage
			// may find exercised: this entry stays unchecked.
			out = append(out, SymbolRows{Symbol: s.Name + " (what " + typ + " values are compared by)", Unchecked: true,
				Why: "premise compares " + typ + " values by what this method writes, and the patch adds it: it decides what every row returning a " + typ + " is compared by"})
		}
	}
	return out
}
