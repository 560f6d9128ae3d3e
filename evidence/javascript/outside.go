package javascript

import (
	"encoding/json"
	"fmt"
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
		t, ok := jsTypeOf(strings.TrimSpace(p.Type))
		if p.Type == "" || !ok || admits(t, a) {
			continue
		}
		return fmt.Sprintf("`%s` is %s, and got %s", p.Name, strings.TrimSpace(p.Type), lang.Compact(a, 40))
	}
	return ""
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
