package python

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/premise-dev/premise/diffparse"
	"github.com/premise-dev/premise/evidence/pysource"
)

// TestParameterTypedByAnImportedFunction: a changed method's parameter that
// it only hands to a function of another of the project's modules (from
// .bit import set_bits) takes that function's type, read from the
// merge-base's copy of the module; a module only the head has types
// nothing, as the head's words decide nothing else of the base's inputs,
// and neither does a link out of the tree.
func TestParameterTypedByAnImportedFunction(t *testing.T) {
	base, head := t.TempDir(), t.TempDir()
	write := func(dir, rel, text string) {
		t.Helper()
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, dir := range []string{base, head} {
		write(dir, "pkg/__init__.py", "")
		write(dir, "pkg/bit.py", "def set_bits(data, value, offset):\n    return data | (value << offset)\n")
	}
	write(head, "pkg/extra.py", "def shift(value):\n    return value << 1\n")
	// A module of the base's tree that is a link to a file outside it
	// is not read either.
	outside := t.TempDir()
	write(outside, "grow.py", "def grow(value):\n    return value << 1\n")
	if err := os.Symlink(filepath.Join(outside, "grow.py"), filepath.Join(base, "pkg", "grow.py")); err != nil {
		t.Fatal(err)
	}
	src := []byte("from .bit import set_bits\nfrom .extra import shift\nfrom .grow import grow\n\n\nclass RR:\n" +
		"    def set_do(self, val):\n        self.ttl = set_bits(self.ttl, val, 15)\n\n" +
		"    def set_z(self, z):\n        self.z = shift(z)\n\n" +
		"    def set_w(self, w):\n        self.w = grow(w)\n")
	pf := &pyFiles{baseDir: base, headDir: head}
	defer pf.close()
	file := pf.parse(diffparse.File{Path: "pkg/dns.py", HeadSrc: src, BaseSrc: src,
		Symbols: []diffparse.Symbol{{Name: "pkg.dns.RR.set_do", Local: "RR.set_do", Kind: "method"}}})
	if g := pf.info(file, "RR.set_do").guesses["val"]; g.Kind != pysource.KindInt {
		t.Errorf("val, handed to bit.set_bits which shifts it, is %s from %s, want an int", g.String(), g.From)
	}
	if g := pf.info(file, "RR.set_z").guesses["z"]; g.Kind == pysource.KindInt {
		t.Errorf("z is %s from %s: typed by pkg/extra.py, which only the head has", g.String(), g.From)
	}
	if g := pf.info(file, "RR.set_w").guesses["w"]; g.Kind == pysource.KindInt {
		t.Errorf("w is %s from %s: typed by pkg/grow.py, a link out of the tree", g.String(), g.From)
	}
}
