package evidence

// class is one equivalence class a template can build for a type: a name
// (seed 004's empty, one, many, duplicate, unordered, touching, nested,
// null, mixed types, inverted), the value, and what the row says in words.
type class struct {
	Name     string
	Kind     string // representative, boundary or invalid (validate.Kind*)
	Value    any
	Relation string
	// IllTyped classes are values outside the parameter's own type (a list
	// holding an int and a string, None for a value): only a language
	// whose calls are not checked against types can be passed them (see
	// language.typed). They had no Go form (a list holding an int and a
	// string, None for a non-pointer).
	IllTyped bool
}

const (
	rep = "representative"
	bnd = "boundary"
	inv = "invalid"
)

// catalog returns the classes a type offers, by name. Values are JSON
// shaped, as the runner protocol carries them.
func catalog(t Type, langName string) map[string]class {
	out := map[string]class{}
	add := func(c class) {
		if c.IllTyped && typedLanguage(langName) {
			return
		}
		out[c.Name] = c
	}
	switch t.Kind {
	case kindIntervals:
		add(class{"empty", bnd, []any{}, "no ranges at all", false})
		add(class{"single", rep, l(p(0, 3)), "a single range", false})
		add(class{"disjoint_sorted", rep, l(p(0, 1), p(4, 6)), "disjoint ranges in order", false})
		add(class{"disjoint_unsorted", bnd, l(p(4, 6), p(0, 1)), "disjoint ranges out of order", false})
		add(class{"reversed", bnd, l(p(8, 9), p(4, 6), p(0, 1)), "ranges in descending order", false})
		add(class{"touching", bnd, l(p(0, 2), p(2, 5)), "ranges that share an endpoint", false})
		add(class{"touching_unsorted", bnd, l(p(2, 5), p(0, 2)), "touching ranges out of order", false})
		add(class{"overlap", rep, l(p(0, 4), p(3, 7)), "two overlapping ranges", false})
		add(class{"overlap_unsorted", bnd, l(p(3, 7), p(0, 4)), "overlapping ranges out of order", false})
		add(class{"nested", bnd, l(p(0, 9), p(2, 3)), "a range nested inside another", false})
		add(class{"nested_unsorted", bnd, l(p(2, 3), p(0, 9)), "a nested range listed before its container", false})
		add(class{"duplicate", bnd, l(p(1, 3), p(1, 3)), "the same range given twice", false})
		add(class{"same_start", bnd, l(p(0, 5), p(0, 2)), "two ranges with the same start, the longer first", false})
		add(class{"empty_range", bnd, l(p(3, 3)), "a range with start == end", false})
		add(class{"negative", bnd, l(p(-5, -1), p(-3, 0)), "ranges with negative bounds", false})
		add(class{"inverted", inv, l(p(5, 1)), "an inverted range, end < start", false})
		add(class{"mixed_types", inv, l(p(0, 1), []any{"a", "b"}), "a range of text among ranges of numbers", true})
	case kindList:
		var e []any
		switch t.Elem.Kind {
		case kindInt:
			e = []any{1, 2, 3, -1, 0}
		case kindFloat:
			e = []any{1.5, 2.5, 3.5, -1.5, 0.0}
		case kindStr:
			e = []any{"a", "b", "c", "", "é"}
		case kindBool:
			e = []any{false, true, true, false, false}
		default:
			return out
		}
		add(class{"empty", bnd, []any{}, "an empty list", false})
		add(class{"single", rep, []any{e[0]}, "a list of one", false})
		add(class{"many", rep, []any{e[0], e[1], e[2]}, "several distinct items in order", false})
		add(class{"sorted", rep, []any{e[0], e[1], e[2]}, "items already in ascending order", false})
		add(class{"unsorted", bnd, []any{e[2], e[0], e[1]}, "items out of order", false})
		add(class{"reversed", bnd, []any{e[2], e[1], e[0]}, "items in descending order", false})
		add(class{"duplicate", bnd, []any{e[1], e[0], e[1]}, "an item repeated, not next to its twin", false})
		add(class{"all_same", bnd, []any{e[0], e[0], e[0]}, "every item equal", false})
		switch t.Elem.Kind {
		case kindInt, kindFloat:
			add(class{"negative", bnd, []any{e[3], e[4], e[0]}, "negative and zero items", false})
		case kindStr:
			add(class{"empty_string", bnd, []any{"", "a"}, "an empty string among the items", false})
			add(class{"non_ascii", bnd, []any{"é", "e", "ß"}, "non-ASCII text among the items", false})
			add(class{"case_variants", bnd, []any{"a", "A"}, "items equal but for case", false})
		}
		add(class{"mixed_types", inv, []any{e[0], mixedWith(t.Elem.Kind)}, "items of two types in one list", true})
	case kindInt:
		add(class{"zero", bnd, 0, "the number zero", false})
		add(class{"one", rep, 1, "the number one", false})
		add(class{"many", rep, 7, "a small positive number", false})
		add(class{"negative", bnd, -1, "a negative number", false})
		add(class{"large", bnd, 2147483648, "a number past 32 bits (2^31)", false})
	case kindFloat:
		add(class{"zero", bnd, 0.0, "the number zero", false})
		add(class{"one", rep, 1.5, "a positive fraction", false})
		add(class{"negative", bnd, -1.5, "a negative number", false})
		add(class{"tiny", bnd, 1e-9, "a number close to zero but not zero", false})
		add(class{"large", bnd, 1e300, "a very large number", false})
	case kindStr:
		add(class{"empty", bnd, "", "the empty string", false})
		add(class{"single", rep, "a", "one character", false})
		add(class{"many", rep, "abc", "a short word", false})
		add(class{"whitespace", bnd, " ", "only whitespace", false})
		add(class{"non_ascii", bnd, "naïve ☃", "non-ASCII text", false})
		add(class{"numeric", rep, "42", "a numeric string", false})
		add(class{"negative_numeric", bnd, "-7", "a negative numeric string", false})
		add(class{"decimal", bnd, "3.5", "a decimal numeric string", false})
		add(class{"padded", bnd, " 42 ", "a number with spaces around it", false})
		add(class{"non_numeric", bnd, "abc", "text that is not a number", false})
		add(class{"non_ascii_digits", bnd, "٤٢", "digits outside ASCII", false})
		// A string is a sequence of characters: an order or uniqueness
		// precondition on one ("s arrives sorted") has sides to test.
		// Named apart from a list's, so that only the categories about
		// order and repeats try them; a class's side is read from its
		// name's suffix (text_unsorted is unsorted).
		add(class{"text_sorted", rep, "abc", "characters already in ascending order", false})
		add(class{"text_unsorted", bnd, "cab", "characters out of order", false})
		add(class{"text_reversed", bnd, "cba", "characters in descending order", false})
		add(class{"text_duplicate", bnd, "aba", "a character repeated, not next to its twin", false})
		add(class{"text_all_same", bnd, "aaa", "every character the same", false})
	case kindBool:
		add(class{"true", rep, true, "the value true", false})
		add(class{"false", bnd, false, "the value false", false})
	case kindDict:
		add(class{"empty", bnd, map[string]any{}, "an empty mapping", false})
		add(class{"single", rep, map[string]any{"a": 1}, "a mapping of one key", false})
		add(class{"many", rep, map[string]any{"a": 1, "b": 2}, "a mapping of several keys", false})
		add(class{"case_variants", bnd, map[string]any{"a": 1, "A": 2}, "keys equal but for case", false})
	}
	// None/nil: a value of the domain when the parameter says so, else
	// outside it (seed 004's P008 invalid_none). Go passes JSON null as the
	// zero value, which only a pointer, slice or map can tell apart.
	if t.Nullable {
		add(class{"null", bnd, nil, "None/nil, which the parameter allows", false})
	} else {
		add(class{"null", inv, nil, "None instead of a value", true})
	}
	return out
}

func p(a, b int) []any  { return []any{a, b} }
func l(xs ...any) []any { return xs }
func mixedWith(k string) any {
	if k == kindStr {
		return 1
	}
	return "a"
}

// typical returns the value a parameter holds while another one varies:
// the representative "many" (or "single") class.
func typical(t Type, langName string) (any, bool) {
	if !t.Known() {
		return nil, false
	}
	c := catalog(t, langName)
	for _, name := range []string{"disjoint_sorted", "many", "single", "one", "true"} {
		if x, ok := c[name]; ok {
			return x.Value, true
		}
	}
	return nil, false
}
