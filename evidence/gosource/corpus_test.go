package gosource

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseCorpus(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    []Value
		wantErr bool
	}{
		{name: "every type", in: "go test fuzz v1\nstring(\"a\\nb\")\n[]byte(\"\\x00x\")\nint(-5)\nint8(127)\nuint64(18446744073709551615)\nrune('é')\nbyte('\\x01')\nfloat64(1.5)\nfloat32(-2)\nbool(true)\nmath.Float64frombits(0x3ff0000000000000)\n",
			want: []Value{"a\nb", []byte("\x00x"), int64(-5), int64(127), uint64(18446744073709551615), int64('é'), int64(1), 1.5, float64(-2), true, 1.0}},
		{name: "a raw string", in: "go test fuzz v1\nstring(`x`)\n", want: []Value{"x"}},
		{name: "blank lines", in: "go test fuzz v1\n\nint(1)\n\n", want: []Value{int64(1)}},
		{name: "no header", in: "string(\"a\")\n", wantErr: true},
		{name: "only a header", in: "go test fuzz v1\n", wantErr: true},
		{name: "NaN", in: "go test fuzz v1\nfloat64(NaN)\n", wantErr: true},
		{name: "Inf", in: "go test fuzz v1\nfloat64(+Inf)\n", wantErr: true},
		{name: "NaN bits", in: "go test fuzz v1\nmath.Float64frombits(0x7ff8000000000001)\n", wantErr: true},
		{name: "out of range", in: "go test fuzz v1\nint8(128)\n", wantErr: true},
		{name: "negative unsigned", in: "go test fuzz v1\nuint(-1)\n", wantErr: true},
		{name: "not a literal", in: "go test fuzz v1\nstring(x)\n", wantErr: true},
		{name: "two arguments", in: "go test fuzz v1\nstring(\"a\", \"b\")\n", wantErr: true},
		{name: "unknown type", in: "go test fuzz v1\ncomplex128(1)\n", wantErr: true},
		{name: "a string for an int", in: "go test fuzz v1\nint(\"1\")\n", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseCorpus([]byte(tt.in))
			if (err != nil) != tt.wantErr {
				t.Fatalf("parseCorpus(%q) error %v, want error %v", tt.in, err, tt.wantErr)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("parseCorpus(%q) (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

// FuzzParseCorpus holds that no corpus file, however malformed, panics the
// parser, and that what it returns is only the value shapes it documents.
func FuzzParseCorpus(f *testing.F) {
	// The seed corpus is testdata/fuzz/FuzzParseCorpus.
	f.Fuzz(func(t *testing.T, data []byte) {
		vals, err := parseCorpus(data)
		if err != nil {
			return
		}
		if len(vals) == 0 {
			t.Fatal("no values and no error")
		}
		for _, v := range vals {
			switch v.(type) {
			case string, []byte, int64, uint64, float64, bool:
			default:
				t.Fatalf("value %#v of type %T", v, v)
			}
		}
	})
}
