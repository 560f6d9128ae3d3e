package evidence_test

import (
	"strings"
	"testing"

	"github.com/premise-dev/premise/evidence"
)

// changeOn is the first change rep shows on symbol; without one the test
// fails, saying what (what) changed yet showed nothing, and what each
// symbol's rows were.
func changeOn(t *testing.T, rep *evidence.Report, symbol, what string) (evidence.Change, bool) {
	t.Helper()
	if cs := changesOf(rep, symbol); len(cs) > 0 {
		return cs[0], true
	}
	for _, s := range rep.Symbols {
		t.Logf("%s: %d rows %s", s.Symbol, s.Rows, s.Why)
	}
	t.Errorf("%s, yet no change on %s: %+v", what, symbol, append(rep.Changes, rep.Unexplained...))
	return evidence.Change{}, false
}

// A method whose change shows only on a receiver in a state its
// constructor never builds (a queue enqueued twice and dequeued once) is
// called on receivers built by the type's own methods, and the change is
// found.
func TestGoReceiverBuiltByItsMethods(t *testing.T) {
	t.Parallel()
	mod := "module example.com/queue\n\ngo 1.21\n"
	base := `package queue

// Queue is a queue of at most capacity items in an array.
type Queue[T any] struct {
	data       []T
	head, tail int
}

// NewQueue makes an empty queue.
func NewQueue[T any](capacity int) *Queue[T] {
	return &Queue[T]{data: make([]T, capacity)}
}

// Enqueue puts item at the back; false when the queue is full.
func (q *Queue[T]) Enqueue(item T) bool {
	if q.tail >= len(q.data) {
		return false
	}
	q.data[q.tail] = item
	q.tail++
	return true
}

// Dequeue takes the front item.
func (q *Queue[T]) Dequeue() (T, bool) {
	var zero T
	if q.head == q.tail {
		return zero, false
	}
	item := q.data[q.head]
	q.head++
	return item, true
}

// Back is the item at the back.
func (q *Queue[T]) Back() (T, bool) {
	var zero T
	if q.head == q.tail {
		return zero, false
	}
	return q.data[q.tail-1], true
}
`
	head := strings.Replace(base, "return q.data[q.tail-1], true", "return q.data[q.tail-q.head-1], true", 1)
	rep := runCommits(t, map[string]string{"go.mod": mod, "queue.go": base}, map[string]string{"queue.go": head}, nil)
	c, ok := changeOn(t, rep, "example.com/queue.Queue.Back", "Back after a dequeue changed")
	if !ok {
		return
	}
	if !strings.Contains(c.Input, "Dequeue") {
		t.Errorf("the witness does not say how its queue was built: %s", c.Input)
	}
}

// A setter whose change shows only when its key is already present is
// called on a receiver that was given the key by the setter itself, and
// what it did is read back through the type's own read methods (its
// fields are unexported: JSON shows none of them).
func TestGoReceiverBuiltBySetter(t *testing.T) {
	t.Parallel()
	mod := "module example.com/omap\n\ngo 1.21\n"
	base := `package omap

// Map keeps its keys in the order they were first set.
type Map struct {
	keys   []string
	values map[string]int
}

// New makes an empty map.
func New() *Map { return &Map{values: map[string]int{}} }

// Set stores value under key.
func (m *Map) Set(key string, value int) {
	if _, ok := m.values[key]; !ok {
		m.keys = append(m.keys, key)
	}
	m.values[key] = value
}

// Get is the value under key.
func (m *Map) Get(key string) (int, bool) {
	v, ok := m.values[key]
	return v, ok
}

// Values are the values in the order their keys were first set.
func (m *Map) Values() []int {
	out := make([]int, 0, len(m.keys))
	for _, k := range m.keys {
		out = append(out, m.values[k])
	}
	return out
}
`
	head := strings.Replace(base, "\tm.values[key] = value\n}", "\t\tm.values[key] = value\n\t}\n}", 1)
	head = strings.Replace(head, "\t\tm.keys = append(m.keys, key)\n\t}\n", "\t\tm.keys = append(m.keys, key)\n", 1)
	rep := runCommits(t, map[string]string{"go.mod": mod, "omap.go": base}, map[string]string{"omap.go": head}, nil)
	changeOn(t, rep, "example.com/omap.Map.Set", "Set of a key already present changed")
}

// The same for a Python class: its method is called on objects its own
// methods built (pushed twice and popped once), and the change is found.
func TestPythonReceiverBuiltByItsMethods(t *testing.T) {
	t.Parallel()
	base := `class Ring:
    """A queue in a list: items before head are gone."""

    def __init__(self):
        self.items = []
        self.head = 0

    def push(self, item):
        self.items.append(item)

    def pop(self):
        item = self.items[self.head]
        self.head += 1
        return item

    def back(self):
        if self.head == len(self.items):
            return None
        return self.items[-1]
`
	head := strings.Replace(base, "        return self.items[-1]\n", "        return self.items[len(self.items) - self.head - 1]\n", 1)
	rep := runCommits(t, map[string]string{"ring.py": base}, map[string]string{"ring.py": head}, nil)
	c, ok := changeOn(t, rep, "ring.Ring.back", "back after a pop changed")
	if !ok {
		return
	}
	if !strings.Contains(c.Input, "pop") {
		t.Errorf("the witness does not say how its object was built: %s", c.Input)
	}
}

// A copier that takes its destination as interface{} is given the address
// of a typed slice holding more than what is copied in, and the change in
// what is left there is found.
func TestGoCopierGetsTypedDestinations(t *testing.T) {
	t.Parallel()
	mod := "module example.com/cp\n\ngo 1.21\n"
	base := `package cp

import (
	"errors"
	"reflect"
)

// Copy copies from into the variable to points at.
func Copy(to, from interface{}) error {
	dst := reflect.ValueOf(to)
	if dst.Kind() != reflect.Pointer || dst.IsNil() {
		return errors.New("copy: to must be a non-nil pointer")
	}
	src := reflect.ValueOf(from)
	dst = dst.Elem()
	if src.Kind() != reflect.Slice || dst.Kind() != reflect.Slice || src.Type().Elem() != dst.Type().Elem() {
		return errors.New("copy: want slices of one element type")
	}
	out := reflect.MakeSlice(dst.Type(), src.Len(), src.Len())
	reflect.Copy(out, src)
	dst.Set(out)
	return nil
}
`
	head := strings.Replace(base, `	out := reflect.MakeSlice(dst.Type(), src.Len(), src.Len())
	reflect.Copy(out, src)
	dst.Set(out)
`, `	if dst.Len() < src.Len() {
		dst.Set(reflect.MakeSlice(dst.Type(), src.Len(), src.Len()))
	}
	reflect.Copy(dst, src)
`, 1)
	rep := runCommits(t, map[string]string{"go.mod": mod, "cp.go": base}, map[string]string{"cp.go": head}, nil)
	changeOn(t, rep, "example.com/cp.Copy", "copying into a longer slice changed")
}

// A parameter that is a map JSON's object keys cannot fill (its keys are
// numbers or pointers) still takes an empty map and nil, so the function
// is called, not left "no value could be built".
func TestGoMapOfOtherKeysIsEmptyOrNil(t *testing.T) {
	t.Parallel()
	mod := "module example.com/seen\n\ngo 1.21\n"
	base := `package seen

// Fresh counts the items of xs not in seen; a nil seen has nothing.
func Fresh(xs []int, seen map[int]struct{}) int {
	n := 0
	for _, x := range xs {
		if _, ok := seen[x]; !ok {
			n++
		}
	}
	return n
}
`
	head := strings.Replace(base, "\tn := 0\n", "\tn := 0\n\tif seen == nil {\n\t\treturn 0\n\t}\n", 1)
	rep := runCommits(t, map[string]string{"go.mod": mod, "seen.go": base}, map[string]string{"seen.go": head}, nil)
	changeOn(t, rep, "example.com/seen.Fresh", "Fresh with a nil set changed")
}

// A function whose output follows a map's iteration order and whose
// patch changed nothing of what it returns is no change: two runs a side
// can show one order each by chance, and the changed rows run more times
// before they count.
func TestGoMapOrderIsNoChange(t *testing.T) {
	t.Parallel()
	mod := "module example.com/uniq\n\ngo 1.21\n"
	base := `package uniq

import "fmt"

// Uniq is the distinct words of xs, in no particular order, each with
// its count scaled by by.
func Uniq(xs []string, by int) []string {
	seen := map[string]int{}
	for _, x := range xs {
		seen[x] += by
	}
	out := []string{}
	for k, n := range seen {
		out = append(out, fmt.Sprint(k, n))
	}
	return out
}
`
	head := strings.Replace(base, "\tout := []string{}\n", "\tout := make([]string, 0, len(seen))\n", 1)
	rep := runCommits(t, map[string]string{"go.mod": mod, "uniq.go": base}, map[string]string{"uniq.go": head}, nil)
	if cs := append(rep.Changes, rep.Unexplained...); len(cs) > 0 {
		t.Fatalf("a refactor that keeps what Uniq returns shows changes: %+v", cs)
	}
	if s := symbolRows(t, rep, "example.com/uniq.Uniq"); s.Rows < 40 {
		t.Fatalf("Uniq ran %d rows: too few for its map's order to show", s.Rows)
	}
}

// A function that returns a value whose fields are unexported (a template
// library's *Value) is compared by what the value's own read methods say
// of it: JSON alone showed {} on both sides, whatever the patch did.
func TestGoOpaqueResultReadThroughItsMethods(t *testing.T) {
	t.Parallel()
	mod := "module example.com/tpl\n\ngo 1.21\n"
	base := `package tpl

import "strings"

// Value wraps what a template computes.
type Value struct{ s string }

// AsValue wraps s.
func AsValue(s string) *Value { return &Value{s: s} }

// String is the value's text.
func (v *Value) String() string { return v.s }

// Breaks turns line ends into <br />.
func Breaks(in *Value) *Value {
	s := strings.ReplaceAll(in.String(), "\r\n", "\n")
	return AsValue(strings.ReplaceAll(s, "\n", "<br />"))
}
`
	head := strings.Replace(base, "\ts := strings.ReplaceAll(in.String(), \"\\r\\n\", \"\\n\")\n\treturn AsValue(strings.ReplaceAll(s, ", "\treturn AsValue(strings.ReplaceAll(in.String(), ", 1)
	if head == base {
		t.Fatal("the patch did not apply")
	}
	rep := runCommits(t, map[string]string{"go.mod": mod, "tpl.go": base}, map[string]string{"tpl.go": head}, nil)
	c, ok := changeOn(t, rep, "example.com/tpl.Breaks", "Breaks of a \\r\\n changed")
	if !ok {
		return
	}
	if !strings.Contains(c.Base, "String() is") {
		t.Errorf("the change does not say what the value reads as: %s / %s", c.Base, c.Head)
	}
}

// A type with no constructor (an unexported generic stack) is built from
// its zero value by its own methods, and a change of one of them seen
// only on a stack pushed twice and popped once is found.
func TestGoZeroValueBuiltByItsMethods(t *testing.T) {
	t.Parallel()
	mod := "module example.com/st\n\ngo 1.21\n"
	base := `package st

type stack[T any] struct {
	data []T
}

func (s *stack[T]) push(v T) { s.data = append(s.data, v) }

func (s *stack[T]) pop() T {
	v := s.data[len(s.data)-1]
	s.data = s.data[:len(s.data)-1]
	return v
}

func (s *stack[T]) peek() (T, bool) {
	var zero T
	if len(s.data) == 0 {
		return zero, false
	}
	return s.data[len(s.data)-1], true
}
`
	head := strings.Replace(base, "\treturn s.data[len(s.data)-1], true\n", "\treturn s.data[0], true\n", 1)
	rep := runCommits(t, map[string]string{"go.mod": mod, "st.go": base}, map[string]string{"st.go": head}, nil)
	changeOn(t, rep, "example.com/st.stack.peek", "peek of a stack of two changed")
}

// A function that writes to a *bufio.Writer is given one over a buffer,
// flushed after the call, and what it wrote is compared.
func TestGoBufferedWriterIsGiven(t *testing.T) {
	t.Parallel()
	mod := "module example.com/wr\n\ngo 1.21\n"
	base := `package wr

import "bufio"

// Lines writes each item on its own line.
func Lines(w *bufio.Writer, items []string) error {
	for _, it := range items {
		if _, err := w.WriteString(it + "\n"); err != nil {
			return err
		}
	}
	return nil
}
`
	head := strings.Replace(base, `it + "\n"`, `it + "\r\n"`, 1)
	rep := runCommits(t, map[string]string{"go.mod": mod, "wr.go": base}, map[string]string{"wr.go": head}, nil)
	changeOn(t, rep, "example.com/wr.Lines", "Lines writes another line end")
}
