package evidence_test

import (
	"strings"
	"testing"
)

// decoderPy is a header decoder whose patch (the head) drops the
// wrapping of a UTF-8 failure: a value that is not UTF-8 raises
// ValueError on the base and UnicodeDecodeError on the head, and only a
// well-formed literal (0x40, a length, the value) reaches the decoding.
const decoderPy = `class Decoder:
    def decode(self, data, raw=False):
        if len(data) < 2 or data[0] != 0x40:
            raise ValueError("not a literal")
        value = data[2:2 + data[1]]
        if raw:
            return value
        WRAP
`

func decoderCommits(test string) (base, head map[string]string) {
	wrapped := `try:
            return value.decode("utf-8")
        except UnicodeDecodeError:
            raise ValueError("not UTF-8")`
	base = map[string]string{"m.py": strings.Replace(decoderPy, "WRAP", wrapped, 1), "tests/test_m.py": test}
	head = map[string]string{"m.py": strings.Replace(decoderPy, "WRAP", `return value.decode("utf-8")`, 1)}
	return base, head
}

func decodeChanged(t *testing.T, base, head map[string]string) bool {
	t.Helper()
	rep := runCommits(t, base, head, nil)
	for _, c := range append(rep.Changes, rep.Unexplained...) {
		if c.Symbol == "m.Decoder.decode" {
			return true
		}
	}
	t.Logf("symbols %+v", rep.Symbols)
	return false
}

// TestMethodArgumentsFromTestsLeadPools: the bytes a test passes to a
// method (hpack's Decoder().decode(block, raw=True)) lead that
// parameter's pool, as a function's do, so the method runs on them with
// its other arguments varied: the block that is not UTF-8, decoded
// without raw, shows the change.
func TestMethodArgumentsFromTestsLeadPools(t *testing.T) {
	t.Parallel()
	base, head := decoderCommits(`from m import Decoder


def test_raw():
    assert Decoder().decode(b'\x40\x02\xc3\x28', raw=True) == b'\xc3\x28'
`)
	if !decodeChanged(t, base, head) {
		t.Errorf("m.Decoder.decode: no change found on the test's block decoded without raw")
	}
}

// TestBytesFromTestsAreMutated: a bytes literal a test passes is stepped
// like any value (its last byte 0xff, its first, one byte short): the
// test's well-formed UTF-8 block with its last byte made 0xff shows the
// change no test wrote.
func TestBytesFromTestsAreMutated(t *testing.T) {
	t.Parallel()
	base, head := decoderCommits(`from m import Decoder


def test_text():
    assert Decoder().decode(b'\x40\x02ab') == 'ab'
`)
	if !decodeChanged(t, base, head) {
		t.Errorf("m.Decoder.decode: no change found on a mutant of the test's block")
	}
}
