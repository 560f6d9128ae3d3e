package junit

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzParse: whatever a runner (or a broken disk) writes, Parse returns a
// report or one line naming the file, never a panic; every case it
// returns has an id and at least one attempt.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.xml")
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`{"Action":"run","Package":"p","Test":"TestA"}` + "\n" + `{"Action":"fail","Package":"p","Test":"TestA"}` + "\n"))
	f.Add([]byte(`{"Action":"output","Package":"p","Output":"x"}` + "\n" + `{"Action":"fail","Package":"p","FailedBuild":"p"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		rep, err := Parse("f.xml", bytes.NewReader(data), Options{MaxBytes: 1 << 20})
		if err != nil {
			msg := err.Error()
			if !strings.HasPrefix(msg, "f.xml") || strings.Contains(msg, "\n") {
				t.Fatalf("error %q: want one line naming the file", msg)
			}
			return
		}
		for _, c := range rep.Cases {
			if c.ID == "" || len(c.Attempts) == 0 {
				t.Fatalf("case %+v: want an id and an attempt", c)
			}
			switch c.Outcome() {
			case Passed, Failed, Errored, Skipped, Flaky:
			default:
				t.Fatalf("case %s: outcome %q", c.ID, c.Outcome())
			}
		}
	})
}
