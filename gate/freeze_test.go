package gate

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestFreezesRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".gate", "frozen_rows.json")
	got, err := LoadFreezes(path)
	if err != nil || len(got) != 0 {
		t.Fatalf("a missing file: %v, %v; want no freezes", got, err)
	}
	now := time.Date(2026, 11, 30, 1, 2, 3, 0, time.UTC)
	want := Freezes{
		"a1b2c3d4e5f60789": NewFreeze("P004", "nondeterministic order", "", now, "abc123"),
		"0123456789abcdef": NewFreeze("P005", "clock", "P010", now, ""),
	}
	if err := want.Save(path); err != nil {
		t.Fatal(err)
	}
	got, err = LoadFreezes(path)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
}

func TestParseFreezesSeedShape(t *testing.T) {
	// Exactly seed 004's example: no premise fields.
	seed := `{"a1b2c3d4e5f60789": {"row_id": "P004", "reason": "nondeterministic order when sort was removed by the patch", "replacement_row": null}}`
	f, err := ParseFreezes("x.json", []byte(seed))
	if err != nil {
		t.Fatal(err)
	}
	if z := f["a1b2c3d4e5f60789"]; z.RowID != "P004" || z.ReplacementRow != nil {
		t.Errorf("got %+v", z)
	}
	for _, bad := range []string{`{"xyz": {"row_id": "P1", "reason": "r"}}`, `{"a1b2c3d4e5f60789": {"reason": "r"}}`, `{"a1b2c3d4e5f60789": {"row_id": "P1"}}`, `[`} {
		if _, err := ParseFreezes("x.json", []byte(bad)); err == nil || !strings.Contains(err.Error(), "x.json") {
			t.Errorf("%s: err = %v, want one naming the file", bad, err)
		}
	}
}

// FuzzParseFreezes: any bytes either fail with an error naming the file or
// parse into freezes that survive a save and a reload unchanged.
func FuzzParseFreezes(f *testing.F) {
	f.Add([]byte(`{"a1b2c3d4e5f60789": {"row_id": "P004", "reason": "r", "replacement_row": null}}`))
	f.Add([]byte(`{"a1b2c3d4e5f60789": {"row_id": "P004", "reason": "r", "replacement_row": "P010", "frozen_at": "2026-11-30T00:00:00Z", "frozen_commit": "abc"}}`))
	f.Add([]byte(``))
	f.Add([]byte(`{}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		fz, err := ParseFreezes("f.json", data)
		if err != nil {
			if !strings.Contains(err.Error(), "f.json") {
				t.Errorf("error %q does not name the file", err)
			}
			return
		}
		path := filepath.Join(t.TempDir(), "f.json")
		if err := fz.Save(path); err != nil {
			t.Fatal(err)
		}
		back, err := LoadFreezes(path)
		if err != nil {
			t.Fatalf("reload: %v", err)
		}
		if diff := cmp.Diff(fz, back); diff != "" {
			t.Errorf("round trip (-want +got):\n%s", diff)
		}
	})
}
