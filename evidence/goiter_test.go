package evidence_test

import (
	"strings"
	"testing"
)

// A Go function over iterators (iter.Seq, Go 1.23) takes a sequence built
// from a list of its element's values and returns one read back as a
// list: before, no value could be built for an iter.Seq parameter, and a
// returned one had no JSON form on either side, so nothing was compared.
func TestGoIteratorsAreBuiltAndRead(t *testing.T) {
	t.Parallel()
	mod := "module example.com/seqs\n\ngo 1.23\n"
	base := `package seqs

import "iter"

// Evens yields the even values of in, in order.
func Evens(in iter.Seq[int]) iter.Seq[int] {
	return func(yield func(int) bool) {
		for v := range in {
			if v%2 == 0 && !yield(v) {
				return
			}
		}
	}
}

// Count is how many values in yields.
func Count[T any](in iter.Seq[T]) int {
	n := 0
	for range in {
		n++
	}
	return n
}

// Indexed pairs each value of in with its position.
func Indexed(in []string) iter.Seq2[int, string] {
	return func(yield func(int, string) bool) {
		for i, s := range in {
			if !yield(i, s) {
				return
			}
		}
	}
}
`
	head := strings.Replace(base, "v%2 == 0 && !yield(v)", "v%2 == 0 && v > 0 && !yield(v)", 1)
	head = strings.Replace(head, "\t\tn++\n", "\t\tn++\n\t\tif n == 3 {\n\t\t\tbreak\n\t\t}\n", 1)
	head = strings.Replace(head, "if !yield(i, s) {", "if !yield(i+1, s) {", 1)
	rep := runCommits(t, map[string]string{"go.mod": mod, "seqs.go": base}, map[string]string{"seqs.go": head}, nil)
	changeOn(t, rep, "example.com/seqs.Evens", "Evens no longer yields zero and the negative evens")
	changeOn(t, rep, "example.com/seqs.Count", "Count stops at three")
	if c, ok := changeOn(t, rep, "example.com/seqs.Indexed", "Indexed counts from one"); ok && !strings.Contains(c.Base, "[0,") {
		t.Errorf("Indexed's base is shown as %q, not as its pairs", c.Base)
	}
}

// A parameter that is a reflect.Type (a converter's from and to types, a
// decoder's field type) is given Go's basic and container types: before,
// no value could be built for it and the function was left unchecked.
func TestGoReflectTypeParameters(t *testing.T) {
	t.Parallel()
	mod := "module example.com/conv\n\ngo 1.21\n"
	base := `package conv

import "reflect"

// Convertible says a value of from converts to to without loss of kind.
func Convertible(from, to reflect.Type) bool {
	switch {
	case from.Kind() == to.Kind():
		return true
	case from.Kind() == reflect.Int && to.Kind() == reflect.Int64:
		return true
	}
	return false
}
`
	head := strings.Replace(base, "from.Kind() == reflect.Int && to.Kind() == reflect.Int64", "from.Kind() == reflect.Int && (to.Kind() == reflect.Int64 || to.Kind() == reflect.String)", 1)
	rep := runCommits(t, map[string]string{"go.mod": mod, "conv.go": base}, map[string]string{"conv.go": head}, nil)
	if c, ok := changeOn(t, rep, "example.com/conv.Convertible", "int now converts to string"); ok && !strings.Contains(c.Input, "string") {
		t.Errorf("the change's input %q does not name the types", c.Input)
	}
}

// A reflect.StructField parameter (a decoder's field) is given fields of
// Go's types, exported and not, with tags built from the function's own
// words: a tag key the code reads ("conf") and an option it checks
// ("required").
func TestGoStructFieldParameters(t *testing.T) {
	t.Parallel()
	mod := "module example.com/tags\n\ngo 1.21\n"
	base := `package tags

import (
	"reflect"
	"strings"
)

// Name is the name a field is read under: its conf tag's first part, or
// its own name; "" for a field that is skipped.
func Name(f reflect.StructField) string {
	tag := f.Tag.Get("conf")
	if tag == "-" || f.PkgPath != "" {
		return ""
	}
	name, opts, _ := strings.Cut(tag, ",")
	if strings.Contains(opts, "required") {
		name = strings.ToUpper(name)
	}
	if name == "" {
		return f.Name
	}
	return name
}
`
	head := strings.Replace(base, `if strings.Contains(opts, "required") {`, `if strings.Contains(opts, "required") && f.Type.Kind() != reflect.String {`, 1)
	rep := runCommits(t, map[string]string{"go.mod": mod, "tags.go": base}, map[string]string{"tags.go": head}, nil)
	changeOn(t, rep, "example.com/tags.Name", "a required string field's name is no longer upper-cased")
}

// An interface{} parameter is given a map of a concrete value type
// (map[string]int) itself: an encoder that coerces such maps into
// map[string]interface{} before its type switch, and a head that drops
// the coercion and prints the map's fmt form, differ only there.
func TestGoAnyGetsATypedMap(t *testing.T) {
	t.Parallel()
	mod := "module example.com/enc\n\ngo 1.21\n"
	base := `package enc

import (
	"fmt"
	"reflect"
	"sort"
	"strings"
)

// Encode writes value as key=value pairs, a map's entries in key order.
func Encode(value interface{}) string {
	if reflect.ValueOf(value).Kind() == reflect.Map {
		if _, ok := value.(map[string]interface{}); !ok {
			val := map[string]interface{}{}
			vv := reflect.ValueOf(value)
			for _, k := range vv.MapKeys() {
				val[fmt.Sprint(k)] = vv.MapIndex(k).Interface()
			}
			value = val
		}
	}
	switch v := value.(type) {
	case map[string]interface{}:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var b strings.Builder
		for _, k := range keys {
			fmt.Fprintf(&b, "%s=%v;", k, v[k])
		}
		return b.String()
	default:
		return fmt.Sprintf("<%v>", v)
	}
}
`
	start := strings.Index(base, "\tif reflect.ValueOf(value)")
	end := strings.Index(base, "\tswitch v := value.(type)")
	head := strings.Replace(base[:start]+base[end:], "\t\"reflect\"\n", "", 1)
	rep := runCommits(t, map[string]string{"go.mod": mod, "enc.go": base}, map[string]string{"enc.go": head}, nil)
	changeOn(t, rep, "example.com/enc.Encode", "a map[string]int is no longer encoded as its entries")
}
