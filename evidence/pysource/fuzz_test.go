package pysource

import (
	"regexp"
	"testing"
)

var defName = regexp.MustCompile(`(?m)^(\s*)(?:async\s+)?def\s+(\w+)|^\s*class\s+(\w+)`)

// names of the functions src seems to define, with Class.m for methods
// (roughly; the fuzz targets only need names worth asking for).
func fuzzNames(src string) []string {
	var out []string
	cls := ""
	for _, m := range defName.FindAllStringSubmatch(src, 50) {
		switch {
		case m[3] != "":
			cls = m[3]
		case m[1] == "":
			out = append(out, m[2])
		default:
			out = append(out, m[2], cls+"."+m[2])
		}
	}
	return append(out, "f", "C.m")
}

// FuzzParse feeds arbitrary source through every entry point: none may
// panic or loop, whatever the patch under review wrote.
func FuzzParse(f *testing.F) {
	// The seed corpus is testdata/fuzz/FuzzParse: small files, since the
	// fuzzer minimizes every input it finds interesting.
	f.Fuzz(func(t *testing.T, src string) {
		file, err := Parse("m.py", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		defer file.Close()
		stub, err := Parse("m.pyi", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		defer stub.Close()
		for _, name := range fuzzNames(src) {
			ins := Harvest(file, name, []*File{file}, 20)
			if len(ins) > 20 {
				t.Fatalf("Harvest(%s) gave %d inputs, limit 20", name, len(ins))
			}
			if _, err := InferTypes(file, name, stub); err != nil && len(file.defs(name)) > 0 {
				t.Fatalf("InferTypes(%s): %v", name, err)
			}
			_, _ = Constants(file, name)
		}
	})
}

// FuzzTypeText feeds arbitrary annotation and docstring type text to the
// type readers.
func FuzzTypeText(f *testing.F) {
	// The seed corpus is testdata/fuzz/FuzzTypeText.
	f.Fuzz(func(t *testing.T, s string) {
		_ = typeExpr(s, map[string]string{"A": "B", "B": "A | int", "P": s}, 0).String()
		_ = docType(s).String()
		_ = parseDocTypes(s)
		_ = literalKind(s)
	})
}
