package golang

import (
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/premise-dev/premise/diffparse"
	"github.com/premise-dev/premise/diffparse/difftest"
)

// TestTypeReadsFollowTheChange: what a function must read to be a reader
// of a changed type depends on the change: a field added or removed is
// read through its selector alone; a field whose type changed is also
// stored by a composite literal naming the type; a tag, an embedded type
// or the definition itself reach every use of the type's values.
func TestTypeReadsFollowTheChange(t *testing.T) {
	const box = "package box\n\n// Box holds items.\ntype Box struct {\n\titems []int\n\tlimit int\n}\n"
	for _, c := range []struct {
		name, base, head string
		want             []string
		byValue          bool // whole values of the type read too
	}{
		{"field added", box, strings.Replace(box, "\tlimit int\n", "\tlimit int\n\tlabel string\n", 1), []string{".label"}, true},
		{"field removed", box, strings.Replace(box, "\tlimit int\n", "", 1), []string{".limit"}, true},
		{"field type narrowed", box, strings.Replace(box, "\tlimit int\n", "\tlimit int8\n", 1), []string{".limit", "Box"}, false},
		{"tag changed", box, strings.Replace(box, "\tlimit int\n", "\tlimit int `json:\"limit\"`\n", 1), []string{".limit", "Box"}, false},
		{"embedded type added", box, strings.Replace(box, "\tlimit int\n", "\tlimit int\n\tsync.Mutex\n", 1), []string{"Box"}, false},
		{"comment between fields", box, strings.Replace(box, "\tlimit int\n", "\t// limit bounds items.\n\tlimit int\n", 1), nil, false},
		{"definition changed", "package dur\n\n// Span is seconds.\ntype Span int\n", "package dur\n\n// Span is seconds.\ntype Span int32\n", []string{"Span"}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := difftest.File("go", "box/box.go", c.base, c.head)
			local := "Box"
			if strings.Contains(c.base, "Span") {
				local = "Span"
			}
			f.Symbols = []diffparse.Symbol{{Name: "box." + local, Local: local, Kind: "type", Change: "modified"}}
			var got []string
			names, values := typeReads(f)
			for n := range names {
				got = append(got, n)
			}
			if values[local] != c.byValue {
				t.Errorf("whole values of %s read: %v, want %v", local, values[local], c.byValue)
			}
			sort.Strings(got)
			sort.Strings(c.want)
			if !slices.Equal(got, c.want) {
				t.Errorf("reads %q, want %q", got, c.want)
			}
		})
	}
}
