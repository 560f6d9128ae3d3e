package evidence_test

import (
	"strings"
	"testing"
)

// A binary decoder reads bytes no text holds: a reader of 0xff, 0xe0
// (MessagePack's negative fixints) reaches a branch UTF-8 text never
// does, and a patch that reads them unsigned is a change there.
func TestGoBinaryReaderReachesHighBytes(t *testing.T) {
	t.Parallel()
	mod := "module example.com/dec\n\ngo 1.21\n"
	base := `package dec

import (
	"errors"
	"io"
)

// Decoder reads small integers, one byte each.
type Decoder struct{ r io.Reader }

// NewDecoder reads from r.
func NewDecoder(r io.Reader) *Decoder { return &Decoder{r: r} }

// Next is the next integer: a byte below 0x80 is itself, one from 0xe0
// up a negative number; the others are tags it does not read.
func (d *Decoder) Next() (int, error) {
	var b [1]byte
	if _, err := io.ReadFull(d.r, b[:]); err != nil {
		return 0, err
	}
	switch c := b[0]; {
	case c < 0x80:
		return int(c), nil
	case c >= 0xe0:
		return int(int8(c)), nil
	}
	return 0, errors.New("not an integer")
}
`
	head := strings.Replace(base, "return int(int8(c)), nil", "return int(c), nil", 1)
	rep := runCommits(t, map[string]string{"go.mod": mod, "dec.go": base}, map[string]string{"dec.go": head}, nil)
	if c, ok := changeOn(t, rep, "example.com/dec.Decoder.Next", "negative integers read unsigned"); ok && !strings.Contains(c.Input, "bytes.NewReader") {
		t.Errorf("the change is shown on %s; want a reader of bytes", c.Input)
	}
}
