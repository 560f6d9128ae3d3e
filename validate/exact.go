package validate

import (
	"encoding/json"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/premise-dev/premise/internal/jsonvalue"
)

// ExactNumbers is v with each number written as its exact value, for
// comparing outcomes (a reply with the base's, a witness row's pinned
// value with the reply): an integer by its digits, however large (an
// off-by-one at 2**64, which a float64 cannot tell, is a change), and a
// float in its shortest form with a point or an exponent (floatNumber),
// so that an integer and a float stay apart even when equal in value
// (Python's "ab"[0] and "ab"[0.0]: the head returning 0.0 where the base
// returned 0 breaks the caller). Contracts still compare numbers by value
// (Normalize).
func ExactNumbers(v any) any { return jsonvalue.Leaves(v, exactLeaf) }

// exactLeaf is one number as ExactNumbers writes it; anything else as it
// is.
func exactLeaf(v any) any {
	switch x := v.(type) {
	case json.Number:
		return exactNumber(string(x))
	case float64:
		return floatNumber(x)
	case float32:
		return floatNumber(float64(x))
	case int:
		return json.Number(strconv.Itoa(x))
	case int64:
		return json.Number(strconv.FormatInt(x, 10))
	case uint64:
		return json.Number(strconv.FormatUint(x, 10))
	}
	return v
}

// exactNumber is a JSON number's text as its exact value: an integer's
// digits (-0 is 0), a float's shortest form (floatNumber).
func exactNumber(text string) any {
	if !strings.ContainsAny(text, ".eE") {
		if n, ok := new(big.Int).SetString(text, 10); ok {
			return json.Number(n.String())
		}
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil {
		return text // out of float64's range: the text is the value
	}
	return floatNumber(f)
}

// floatNumber writes a float apart from every integer, in its shortest
// form: 2.0 is "2.0", never "2"; 1e+20 stays so. A float zero is one
// zero, as Python's -0.0 == 0.0 is.
func floatNumber(f float64) any {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return strconv.FormatFloat(f, 'g', -1, 64)
	}
	if f == 0 {
		f = 0
	}
	s := strconv.FormatFloat(f, 'g', -1, 64)
	if !strings.ContainsAny(s, ".eE") {
		s += ".0"
	}
	return json.Number(s)
}
