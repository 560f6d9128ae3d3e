package javascript

import (
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/premise-dev/premise/diffparse"
	"github.com/premise-dev/premise/evidence/lang"
)

// OutsideType is the TypeScript side of the engine's typer (evidence's
// outside.go): an argument of a kind its parameter's annotation at the
// merge-base rules out (an object where it says readonly T[], a string
// where it says number). Both versions may do anything there, as no
// typed caller passes it, and a refactor that reads a list without .map
// differs from the base only on such inputs. The base's annotation,
// never the head's: a patch that annotates a parameter anew must not
// thereby set its revealing inputs apart. JavaScript has no annotation
// and says nothing; null, undefined and the values premise encodes ($
// keys: NaN, functions, constructed objects) are never judged.
func (l *jsLang) OutsideType(tg lang.Target, args []any, _ map[string]any) string {
	sig := tg.BaseSig
	if l.lang != diffparse.LangTypeScript || sig == nil {
		return ""
	}
	if len(tg.Receivers) > 0 && len(args) > 0 {
		args = args[1:] // the receiver
	}
	for i, a := range args {
		if i >= len(sig.Params) {
			break
		}
		p := sig.Params[i]
		if info, _ := tg.Data.(*jsInfo); info != nil && info.interfaces[p.Name] && !admitsObject(a) {
			return fmt.Sprintf("`%s` is %s, an interface, and got %s", p.Name, strings.TrimSpace(p.Type), lang.Compact(a, 40))
		}
		t, ok := jsTypeOf(strings.TrimSpace(p.Type))
		if p.Type == "" || !ok || admits(t, a) {
			continue
		}
		return fmt.Sprintf("`%s` is %s, and got %s", p.Name, strings.TrimSpace(p.Type), lang.Compact(a, 40))
	}
	return ""
}

// admitsObject says whether v may be an object an interface describes:
// not an array, a string, a number or a boolean.
func admitsObject(v any) bool {
	switch v.(type) {
	case []any, string, bool, int, int64, float64, json.Number:
		return false
	}
	return true
}

// admits says whether a row's value v is of t's kind, or cannot be told.
func admits(t lang.Type, v any) bool {
	if v == nil {
		return true
	}
	if m, ok := v.(map[string]any); ok {
		for k := range m {
			if strings.HasPrefix(k, "$") {
				return true // encoded by premise: its kind is not read here
			}
		}
	}
	switch v.(type) {
	case bool:
		return t.Kind == lang.KindBool || t.Kind == lang.KindAny
	case int, int64, float64, json.Number:
		return t.Kind == lang.KindInt || t.Kind == lang.KindFloat || t.Kind == lang.KindAny
	case string:
		return t.Kind == lang.KindStr || t.Kind == lang.KindAny
	case []any:
		// object and Record<string, unknown> take arrays too.
		return t.Kind == lang.KindList || t.Kind == lang.KindIntervals || t.Kind == lang.KindDict || t.Kind == lang.KindAny
	case map[string]any:
		return t.Kind == lang.KindDict || t.Kind == lang.KindAny
	}
	return true
}

// jsTypeNameRe is an annotation that is a bare type name (InternalResult).
var jsTypeNameRe = regexp.MustCompile(`^[A-Z][\w$]*$`)

// isInterface says whether name is an interface the TypeScript file at
// file (src, in the base's tree) declares or imports from a relative
// module of the base's tree: an object type, which no array or primitive
// is. An interface extending Array, or a name found nowhere, says nothing.
func (l *jsLang) isInterface(src []byte, file, name string) bool {
	q := regexp.QuoteMeta(name)
	decl := regexp.MustCompile(`(?m)^\s*(export\s+)?(declare\s+)?interface\s+` + q + `\b([^{]*)\{`)
	declared := func(text []byte) (bool, bool) {
		m := decl.FindSubmatch(text)
		if m == nil {
			return false, false
		}
		return !regexp.MustCompile(`\b(Array|ReadonlyArray|Iterable)\b`).Match(m[3]), true
	}
	if ok, found := declared(src); found {
		return ok
	}
	if l.base == "" {
		return false
	}
	imp := regexp.MustCompile(`import\s+(type\s+)?\{([^}]*)\}\s*from\s*['"](\.[^'"]*)['"]`)
	for _, m := range imp.FindAllSubmatch(src, -1) {
		names := false
		for _, item := range strings.Split(string(m[2]), ",") {
			f := strings.Fields(strings.TrimPrefix(strings.TrimSpace(item), "type "))
			if len(f) > 0 && f[len(f)-1] == name && (len(f) == 1 || f[0] == name) {
				names = true
			}
		}
		if !names {
			continue
		}
		rel := path.Join(path.Dir(filepath.ToSlash(file)), string(m[3]))
		rel = strings.TrimSuffix(rel, ".js")
		for _, cand := range []string{rel + ".ts", rel + ".d.ts", rel + ".mts", rel + "/index.ts", rel} {
			if strings.HasPrefix(cand, "..") {
				continue
			}
			text, err := os.ReadFile(filepath.Join(l.base, filepath.FromSlash(cand)))
			if err != nil || len(text) > lang.MaxTestFileBytes {
				continue
			}
			if ok, found := declared(text); found {
				return ok
			}
		}
	}
	return false
}
