package lang

import (
	"fmt"
	"testing"
)

// TestByteSignatures: a matcher's comparisons of its buffer's bytes come
// back as buffers: each alternative laid over the first, at the length
// its highest index needs and around the lengths the text compares with;
// character constants and the other alternative's bytes included.
func TestByteSignatures(t *testing.T) {
	text := `func Tiff(buf []byte) bool {
	return len(buf) > 9 &&
		((buf[0] == 0x49 && buf[1] == 0x49 && buf[2] == 0x2A && buf[3] == 0x0) ||
			(buf[0] == 'M' && buf[1] == 'M' && buf[2] == 0x0 && buf[3] == 42)) &&
		!(buf[8] == 0x43 && buf[9] == 0x52)
}`
	got := ByteSignatures("buf", text)
	has := func(want []int) bool {
		for _, b := range got {
			if fmt.Sprint(b) == fmt.Sprint(want) {
				return true
			}
		}
		return false
	}
	for _, want := range [][]int{
		{0x49, 0x49, 0x2a, 0, 0, 0, 0, 0, 0x43, 0x52}, // the first alternative, at its highest index
		{0x4d, 0x4d, 0, 0x2a, 0, 0, 0, 0, 0x43, 0x52}, // the second, laid over the first
		{0x49, 0x49, 0x2a, 0, 0, 0, 0, 0, 0x43},       // one short of len(buf) > 9
		{0x49, 0x49, 0x2a, 0, 0, 0, 0, 0},             // two short
	} {
		if !has(want) {
			t.Errorf("no buffer %v among %v", want, got)
		}
	}
	if got := ByteSignatures("data", text); got != nil {
		t.Errorf("ByteSignatures(data) = %v; the text compares no byte of data", got)
	}
}
