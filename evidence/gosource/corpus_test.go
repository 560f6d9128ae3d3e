package gosource

import (
	"strings"
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

// TestCorpusValue pins what one corpus line reads as, and which check
// turns a line down: one row per type family and per rejection.
func TestCorpusValue(t *testing.T) {
	tests := []struct {
		in      string
		want    Value
		wantErr string // a part of the error; "" for none
	}{
		// The conversion.
		{in: "int", wantErr: "want a conversion of one literal"},
		{in: "int(1, 2)", wantErr: "want a conversion of one literal"},
		{in: `string("a"...)`, wantErr: "want a conversion of one literal"},
		{in: `[4]byte("x")`, wantErr: "want []byte"},
		{in: `[]int("x")`, wantErr: "want []byte"},
		{in: "math.Sqrt(1)", wantErr: "want math.Float64frombits or math.Float32frombits"},
		{in: "x.Float64frombits(1)", wantErr: "want math.Float64frombits or math.Float32frombits"},
		{in: "(int)(1)", wantErr: "want a type"},
		{in: "complex128(1)", wantErr: "unknown type complex128"},
		// The literal.
		{in: "int(f(1))", wantErr: "want a literal"},
		{in: "bool(x)", wantErr: "want a literal, not x"},
		{in: "bool(false)", want: false},
		{in: "bool(-true)", wantErr: "want a literal, not true"},
		{in: "bool(1)", wantErr: "unknown type bool"},
		{in: "float64(-Inf)", wantErr: "JSON cannot carry NaN or Inf"},
		// Strings.
		{in: `[]byte("x")`, want: []byte("x")},
		{in: `string(-"a")`, wantErr: "a negative string"},
		{in: "string('a')", wantErr: "string wants a string literal"},
		{in: `string("\q")`, wantErr: "unknown escape sequence"},
		// Integers.
		{in: "int(+5)", want: int64(5)},
		{in: "rune('a')", want: int64('a')},
		{in: "rune(-1)", want: int64(-1)},
		{in: "int(-9223372036854775808)", want: int64(-9223372036854775808)},
		{in: "int(-'a')", wantErr: "a negative character"},
		{in: "int('ab')", wantErr: "illegal rune literal"},
		{in: "int8(-128)", want: int64(-128)},
		{in: "int8(0x7f)", want: int64(127)},
		{in: "int16(32768)", wantErr: "32768 out of range for int16"},
		{in: "int32(2147483648)", wantErr: "out of range for int32"},
		{in: "int(9223372036854775808)", wantErr: "value out of range"},
		{in: "int64(1.5)", wantErr: "int64 wants an integer"},
		{in: "uint8(256)", wantErr: "256 out of range for uint8"},
		{in: "byte(255)", want: int64(255)},
		{in: "uint16(65535)", want: int64(65535)},
		{in: "uint32(4294967295)", want: int64(4294967295)},
		{in: "uint(18446744073709551615)", want: uint64(18446744073709551615)},
		{in: "uint64(18446744073709551616)", wantErr: "value out of range"},
		{in: "uint(-0)", want: int64(0)},
		{in: "uint64(-1)", wantErr: "negative uint64"},
		// Floats.
		{in: "float64(1)", want: float64(1)},
		{in: "float64(1e400)", wantErr: "value out of range"},
		{in: `float64("a")`, wantErr: "float64 wants a number"},
		{in: "float64('a')", wantErr: "float64 wants a number"},
		{in: "float32(0x10)", wantErr: "invalid syntax"},
		{in: "math.Float32frombits(0x3f800000)", want: float64(1)},
		{in: "math.Float32frombits(0x100000000)", wantErr: "float32 bits out of range"},
		{in: "math.Float32frombits(0x7f800000)", wantErr: "JSON cannot carry NaN or Inf"},
		{in: "math.Float64frombits(-1)", wantErr: "want the bits as an integer"},
		{in: "math.Float64frombits(1.5)", wantErr: "want the bits as an integer"},
	}
	for _, tt := range tests {
		got, err := corpusValue([]byte(tt.in))
		switch {
		case tt.wantErr == "" && err != nil:
			t.Errorf("corpusValue(%s): %v, want %#v", tt.in, err, tt.want)
		case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
			t.Errorf("corpusValue(%s) = %#v, %v, want an error with %q", tt.in, got, err, tt.wantErr)
		case !cmp.Equal(tt.want, got):
			t.Errorf("corpusValue(%s) = %#v (%T), want %#v (%T)", tt.in, got, got, tt.want, tt.want)
		}
	}
}
