package validate

import (
	"fmt"
	"strings"
)

// KindProperty is a row whose inputs are generated (seed 001, layer 1;
// seed 002, properties): a strategy, a fixed seed and a count stand for
// the one inp of the other kinds, and the check is a property of the call.
const KindProperty = "property"

// The properties a property row checks.
const (
	PropRoundTrip   = "round_trip"   // target(inverse(x)) == x: parse(serialize(x)) == x
	PropNeverRaises = "never_raises" // target(x) returns, whatever x
	PropIdempotent  = "idempotent"   // target(target(x)) == target(x)
	PropPermutation = "permutation"  // target(shuffled x) == target(x), x a list
	PropContract    = "contract"     // the row's contract (CEL over result and inp) holds for every x
)

// Property is a property row's generator and check.
//
//   - id: P020
//     cls: round_trip
//     kind: property
//     relation: parsing a serialized line gives its fields back
//     assumption_ids: [A001]
//     property:
//     check: round_trip
//     inverse: csvline.serialize_csv_line
//     seed: 20260828
//     count: 200
//     strategy: {type: list, min_size: 1, max_size: 8, of: {type: text, max_size: 16, exclude: ","}}
type Property struct {
	Check    string    `yaml:"check" json:"check"`
	Inverse  string    `yaml:"inverse,omitempty" json:"inverse,omitempty"`
	Seed     int64     `yaml:"seed" json:"seed"`
	Count    int       `yaml:"count,omitempty" json:"count,omitempty"`
	Strategy *Strategy `yaml:"strategy" json:"strategy"`
}

// DefaultPropertyCount is how many inputs a property row tries when it
// does not say.
const DefaultPropertyCount = 100

// Strategy describes the inputs a property row generates, inside the
// format's contract (seed 001: keep the generator inside the contract).
type Strategy struct {
	// Type is text, int, float, bool, list or one_of.
	Type string `yaml:"type" json:"type"`
	// MinSize and MaxSize bound a text's characters or a list's items.
	MinSize int  `yaml:"min_size,omitempty" json:"min_size,omitempty"`
	MaxSize *int `yaml:"max_size,omitempty" json:"max_size,omitempty"`
	// Min and Max bound an int or a float.
	Min *float64 `yaml:"min,omitempty" json:"min,omitempty"`
	Max *float64 `yaml:"max,omitempty" json:"max,omitempty"`
	// Alphabet is the characters a text draws from (default: printable
	// ASCII and a few letters beyond it); Exclude are never drawn.
	Alphabet string `yaml:"alphabet,omitempty" json:"alphabet,omitempty"`
	Exclude  string `yaml:"exclude,omitempty" json:"exclude,omitempty"`
	// Of is a list's items.
	Of *Strategy `yaml:"of,omitempty" json:"of,omitempty"`
	// Values are one_of's choices, simplest first: shrinking moves toward
	// the first.
	Values []any `yaml:"values,omitempty" json:"values,omitempty"`
}

// Limit is s.MaxSize, or def when it is not given.
func (s *Strategy) Limit(def int) int {
	if s.MaxSize == nil {
		return def
	}
	return *s.MaxSize
}

// check returns what is wrong with the strategy, "" when nothing.
func (s *Strategy) check(at string) string {
	if s == nil {
		return at + ": missing"
	}
	switch s.Type {
	case "text", "list":
		if s.MinSize < 0 || s.MaxSize != nil && *s.MaxSize < s.MinSize {
			return fmt.Sprintf("%s: want 0 <= min_size <= max_size", at)
		}
		if s.Type == "list" {
			if s.Of == nil {
				return at + ": a list needs of, the strategy of its items"
			}
			return s.Of.check(at + ".of")
		}
		if s.Alphabet != "" && strings.Trim(s.Alphabet, s.Exclude) == "" {
			return at + ": exclude leaves no character of the alphabet"
		}
	case "int", "float":
		if s.Min != nil && s.Max != nil && *s.Max < *s.Min {
			return at + ": want min <= max"
		}
	case "bool":
	case "one_of":
		if len(s.Values) == 0 {
			return at + ": one_of needs values"
		}
	default:
		return fmt.Sprintf("%s: type %q must be text, int, float, bool, list or one_of", at, s.Type)
	}
	return ""
}

// checkProperty applies the property row's schema.
func (d *decoder) checkProperty(r *Row, at func(string) int, what string) {
	if r.Kind != KindProperty {
		if r.Property != nil {
			d.errf(at("property"), "%s: property is for rows of kind property; this row is %s", what, r.Kind)
		}
		return
	}
	p := r.Property
	if p == nil {
		d.errf(at("kind"), "%s: a property row needs property: {check, seed, strategy}", what)
		return
	}
	if r.HasInp || r.Args != nil || r.Kwargs != nil {
		d.errf(at("inp"), "%s: a property row generates its inputs from property.strategy; remove inp/args/kwargs", what)
	}
	switch p.Check {
	case PropRoundTrip:
		if p.Inverse == "" {
			d.errf(at("property"), "%s: round_trip needs property.inverse, the function it undoes (serialize for parse)", what)
		}
	case PropContract:
		if r.Contract == "" {
			d.errf(at("property"), "%s: check contract needs the row's contract, a CEL relation of result and inp", what)
		}
	case PropPermutation:
		if p.Strategy != nil && p.Strategy.Type != "list" {
			d.errf(at("property"), "%s: permutation shuffles a list: the strategy must be a list", what)
		}
	case PropNeverRaises, PropIdempotent:
	default:
		d.errf(at("property"), "%s: property.check %q must be round_trip, never_raises, idempotent, permutation or contract", what, p.Check)
	}
	if p.Check != PropRoundTrip && p.Inverse != "" {
		d.errf(at("property"), "%s: property.inverse is for round_trip", what)
	}
	if p.Seed == 0 {
		d.errf(at("property"), "%s: property.seed is required and not 0: fix the seed, so a failure is found again (seed 001)", what)
	}
	if p.Count < 0 || p.Count > 100000 {
		d.errf(at("property"), "%s: property.count %d: want 1 to 100000 (default %d)", what, p.Count, DefaultPropertyCount)
	}
	if msg := p.Strategy.check("property.strategy"); msg != "" {
		d.errf(at("property"), "%s: %s", what, msg)
	}
	if len(r.Metamorphic) > 0 {
		d.errf(at("metamorphic"), "%s: a property row checks its property; metamorphic is for rows of one input", what)
	}
}
