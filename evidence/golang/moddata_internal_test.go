package golang

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/premise-dev/premise/diffparse"
)

// TestDataReadersThroughPackageValues: a changed const that only other
// package-level values are built from (a piece of a pattern) reaches the
// functions reading those: pattern reads pathCont, built from midChar,
// built from endChar, which the patch changed; pad reads neither.
func TestDataReadersThroughPackageValues(t *testing.T) {
	base := "package xu\n\nconst (\n\tendChar  = `a-z_`\n\tmidChar  = endChar + `|`\n\tpathCont = `[` + midChar + `]*`\n\tother    = `x`\n)\n\n" +
		"var compiled = len(pathCont)\n\nfunc pattern() string {\n\treturn `/` + pathCont\n}\n\nfunc size() int {\n\treturn compiled\n}\n\nfunc pad(s string) string {\n\treturn other + s\n}\n"
	head := strings.Replace(base, "`a-z_`", "`a-z`", 1)
	f := diffparse.File{
		Path: "xu/xu.go", Language: "go", Status: "modified",
		BaseSrc: []byte(base), HeadSrc: []byte(head),
		Hunks: []diffparse.Hunk{{OldStart: 4, OldLines: 1, NewStart: 4, NewLines: 1, Lines: []diffparse.Line{
			{Kind: '-', Old: 4, Text: strings.Split(base, "\n")[3]},
			{Kind: '+', New: 4, Text: strings.Split(head, "\n")[3]},
		}}},
	}
	syms, reads, _ := goDataReaders(f, "example.com/xu")
	var got []string
	for _, s := range syms {
		got = append(got, s.Name+" "+strings.Join(reads[s.Name], ","))
	}
	want := []string{"example.com/xu.pattern pathCont", "example.com/xu.size compiled"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("readers (-want +got):\n%s", diff)
	}
}
