package python

import (
	"slices"
	"strings"

	"github.com/premise-dev/premise/diffparse"
	"github.com/premise-dev/premise/evidence/lang"
	"github.com/premise-dev/premise/evidence/pysource"
)

// A parameter nothing annotates is still an object of the module's own
// class when the function reads that class's attributes off it
// (point.latitude), or a list of them when it reads them off its items
// (for point in points: point.latitude): simplify_polyline(points,
// max_distance) judged on lists of ints fails alike on both sides and
// shows nothing. Such a parameter takes objects of the class the
// attributes fit (pysource.Fits), built as receivers are, and lists of
// them in a few orders and lengths (issue 24: inputs that reach the
// changed line).

// maxDuckObjects bounds the objects built for one parameter.
const maxDuckObjects = 6

// duckValues are, by parameter whose type premise reads nowhere else,
// objects of the module's class its use fits, or lists of them. The
// merge-base's text is read where it has the function: the head's text
// decides no input the base's worker runs (issue 26).
func duckValues(s diffparse.Symbol, sig *lang.Signature, sigs map[string]*lang.Signature, pf *pyFiles, pyf *pyFile, info *pyInfo) map[string][]any {
	if pyf == nil || pyf.head == nil {
		return nil
	}
	src := pyf.head
	if pyf.base != nil && pyf.base.HasDef(s.Local) {
		src = pyf.base
	}
	uses := src.ParamUses(s.Local)
	if len(uses) == 0 {
		return nil
	}
	module := strings.TrimSuffix(s.Name, "."+s.Local)
	var out map[string][]any
	for _, p := range sig.Params {
		u, ok := uses[p.Name]
		if !ok || strings.HasPrefix(p.Name, "*") || len(info.classValues[p.Name]) > 0 || inferPython(p).From == "annotation" {
			continue
		}
		g := info.guesses[p.Name]
		var vals []any
		switch {
		case len(u.Own) > 0 && (!g.Known() || g.Kind == pysource.KindObject):
			if cls := src.Fits(u.Own); len(cls) > 0 {
				vals = duckObjects(module, cls[0], sigs, pf, pyf)
			}
		case len(u.Items) > 0 && len(u.Own) == 0 && (!g.Known() || containerKinds[g.Kind]):
			if cls := src.Fits(u.Items); len(cls) > 0 {
				vals = objectLists(duckObjects(module, cls[0], sigs, pf, pyf))
			}
		}
		if len(vals) == 0 {
			continue
		}
		if out == nil {
			out = map[string][]any{}
		}
		out[p.Name] = vals
	}
	return out
}

// containerKinds are the guesses whose items a parameter's use can name.
var containerKinds = map[string]bool{
	pysource.KindList: true, pysource.KindTuple: true, pysource.KindSequence: true,
	pysource.KindIterable: true, pysource.KindSized: true, pysource.KindSet: true,
}

// classObjects are objects of the module's class cls: those the tests
// build and fill first, then up to n its constructors build.
func classObjects(module, cls string, sigs map[string]*lang.Signature, pf *pyFiles, pyf *pyFile, n int) []any {
	param := diffparse.Symbol{Name: module + "." + cls + ".__param__", Local: cls + ".__param__"}
	var vals []any
	for _, in := range testInstances(param, pf, pyf) {
		vals = append(vals, receiverExpr(module, in.Receiver, in.Imports))
	}
	return lang.DedupeValues(append(vals, initReceivers(param, sigs, pf, pyf, nil, n)...))
}

// duckObjects are the first maxDuckObjects objects of cls.
func duckObjects(module, cls string, sigs map[string]*lang.Signature, pf *pyFiles, pyf *pyFile) []any {
	vals := classObjects(module, cls, sigs, pf, pyf, maxDuckObjects)
	return vals[:min(len(vals), maxDuckObjects)]
}

// objectLists are lists of objs: growing runs from the first, each
// object alone, the empty list, the runs reordered (the second first, the
// last two swapped, reversed), an object twice, and one odd object among
// copies of the first at each place of four, where the order, a repeat or
// the place of the one that differs is what the code gets wrong.
func objectLists(objs []any) []any {
	if len(objs) == 0 {
		return nil
	}
	at := func(is ...int) []any {
		var l []any
		for _, i := range is {
			if i >= len(objs) {
				return nil
			}
			l = append(l, objs[i])
		}
		return l
	}
	shapes := [][]int{{0, 1, 2}, {0, 1}, {0}, {}, {0, 1, 2, 3}, {1, 0, 2}, {0, 2, 1, 3}, {0, 1, 2, 3, 4}, {0, 1, 0}, {3, 2, 1, 0}, {0, 0},
		{0, 0, 1, 0}, {0, 1, 0, 0}, {1, 0, 0, 0}, {0, 0, 0, 1}, {0, 1, 3, 2}, {1}, {2, 1, 0, 3, 4, 5}}
	var out []any
	for _, sh := range shapes {
		if l := at(sh...); l != nil || len(sh) == 0 {
			out = append(out, listOf(l))
		}
	}
	return lang.DedupeValues(out)
}

// listOf is a list of values, some of them expressions, as one value: an
// expression when any is.
func listOf(vals []any) any {
	var srcs, imports []string
	exprs := false
	for _, v := range vals {
		e, ok := v.(map[string]any)
		src, isSrc := e[lang.ExprKey].(string)
		if !ok || !isSrc {
			srcs = append(srcs, pyRepr(v, 0))
			continue
		}
		exprs = true
		srcs = append(srcs, src)
		ims, _ := e[lang.ImportsKey].([]any)
		for _, im := range ims {
			if s, ok := im.(string); ok && !slices.Contains(imports, s) {
				imports = append(imports, s)
			}
		}
	}
	if !exprs {
		return append([]any{}, vals...)
	}
	return pyArg("["+strings.Join(srcs, ", ")+"]", imports)
}
