package jssource

import (
	"strings"
	"testing"
)

// FuzzParse feeds arbitrary source, as a module and as a test file,
// through every entry point: none may panic or loop, whatever the patch
// under review wrote, every statement lies inside the file, and every
// harvested argument must be one a later parse reads as a literal again.
func FuzzParse(f *testing.F) {
	// The seed corpus is testdata/fuzz/FuzzParse.
	f.Fuzz(func(t *testing.T, src string, ts bool) {
		path := "m.js"
		if ts {
			path = "m.ts"
		}
		file, err := Parse(path, []byte(src))
		if err != nil {
			if !strings.HasPrefix(err.Error(), "parse "+path+": ") {
				t.Fatalf("error %q does not name the file", err)
			}
			return
		}
		defer file.Close()
		lines := strings.Count(src, "\n") + 1
		for _, st := range file.Statements() {
			if st.First < 1 || st.Last < st.First || st.Last > lines {
				t.Fatalf("statement %+v outside the file's %d lines", st, lines)
			}
		}
		names := []string{"f", "C.m", "default"}
		for name := range file.defs() {
			names = append(names, name)
		}
		for _, name := range names {
			ins := Harvest(file, name, []*File{file}, 20)
			if len(ins) > 20 {
				t.Fatalf("Harvest(%s) gave %d inputs, limit 20", name, len(ins))
			}
			for _, in := range ins {
				check := "g(" + strings.Join(in.Args, ", ") + ");\n"
				cf, err := Parse("check.js", []byte(check))
				if err != nil {
					t.Fatal(err)
				}
				if got := Harvest(nil, "g", []*File{cf}, 0); len(got) != 1 || strings.Join(got[0].Args, ", ") != strings.Join(in.Args, ", ") {
					t.Fatalf("Harvest(%s) argument %q does not read back as a literal: %+v", name, in.Args, got)
				}
				cf.Close()
			}
			_, _ = InferTypes(file, name)
			_, _ = Constants(file, name)
		}
	})
}

// FuzzDocType feeds arbitrary JSDoc type text to the type reader.
func FuzzDocType(f *testing.F) {
	for _, s := range []string{"number", "?Array.<string>=", "Object.<string, {a: number}>", "...*", "function(number): string", "'a'|'b'|null", "{{"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		_ = docType(s).String()
	})
}
