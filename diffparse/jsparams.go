package diffparse

import (
	"fmt"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// JSParams returns the parameters of the function that the longest dotted
// suffix of name names in src, a JavaScript or TypeScript source as
// language says ("javascript", "typescript"): src/lib/ranges.Interval.merge
// finds Interval.merge before merge. Each parameter keeps its TypeScript
// annotation (Type, without the colon) and its default value as written; a
// rest parameter (...xs) is marked Varargs with its name without the dots,
// a destructured one is named by its pattern ({a, b}), x?: T is Optional,
// and TypeScript's this parameter is left out.
func JSParams(language string, src []byte, name string) ([]Param, error) {
	funcs, err := jsFuncs(language, src)
	if err != nil {
		return nil, err
	}
	parts := strings.Split(name, ".")
	for i := range parts {
		if ps, ok := funcs[strings.Join(parts[i:], ".")]; ok {
			return ps, nil
		}
	}
	return nil, fmt.Errorf("%s: no function %s", language, name)
}

// JSFuncParams returns the parameters of every function and method in src
// by its local name (mergeRanges, Interval.merge, api.split), parsing src
// once; JSParams says how each parameter reads.
func JSFuncParams(language string, src []byte) (map[string][]Param, error) {
	return jsFuncs(language, src)
}

func jsFuncs(language string, src []byte) (map[string][]Param, error) {
	fe, ok := frontEndFor(language).(jsFrontEnd)
	if !ok {
		return nil, fmt.Errorf("no JavaScript front end for language %q", language)
	}
	tree, err := fe.parse(src)
	if err != nil {
		return nil, err
	}
	defer tree.Close()
	w := jsWalker{src: src, funcs: map[string]*sitter.Node{}, protos: protoAliases(src)}
	w.statements(tree.RootNode(), "")
	out := make(map[string][]Param, len(w.funcs))
	for name, fn := range w.funcs {
		out[name] = w.params(fn)
	}
	return out, nil
}

// params reads a function's parameter list.
func (w *jsWalker) params(fn *sitter.Node) []Param {
	out := []Param{}
	if one := fn.ChildByFieldName("parameter"); one != nil { // x => ...
		return append(out, Param{Name: w.text(one)})
	}
	ps := fn.ChildByFieldName("parameters")
	if ps == nil {
		return out
	}
	for i := uint(0); i < ps.NamedChildCount(); i++ {
		c := ps.NamedChild(i)
		var p Param
		switch c.Kind() {
		case "identifier", "object_pattern", "array_pattern":
			p.Name = w.text(c)
		case "assignment_pattern":
			p.Name, p.Default = w.text(c.ChildByFieldName("left")), w.text(c.ChildByFieldName("right"))
		case "rest_pattern":
			p.Name, p.Varargs = w.restName(c), true
		case "required_parameter", "optional_parameter":
			pat := c.ChildByFieldName("pattern")
			if pat == nil || pat.Kind() == "this" {
				continue
			}
			p.Name = w.text(pat)
			if pat.Kind() == "rest_pattern" {
				p.Name, p.Varargs = w.restName(pat), true
			}
			if t := c.ChildByFieldName("type"); t != nil {
				p.Type = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(w.text(t)), ":"))
			}
			p.Default = w.text(c.ChildByFieldName("value"))
			p.Optional = c.Kind() == "optional_parameter"
		default: // comments, decorators
			continue
		}
		out = append(out, p)
	}
	return out
}

// restName is the name of ...xs, or the pattern of ...[a, b].
func (w *jsWalker) restName(r *sitter.Node) string {
	if r.NamedChildCount() > 0 {
		return w.text(r.NamedChild(0))
	}
	return strings.TrimPrefix(w.text(r), "...")
}
