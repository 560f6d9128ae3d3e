package evidence

import (
	"math"

	"github.com/premise-dev/premise/evidence/lang"
)

// Evidence rows need breadth more than precision: they only ask whether
// base and head agree, so any well-typed input is a fair question. The
// values below are the boundaries agent patches move (empty, one, several,
// unsorted, duplicated, touching, inverted, negative, blank, numeric
// strings, naive and aware timestamps), built for each parameter from its
// annotation or Go type, and from the string literals of the function's two
// versions, as a fuzzer's dictionary would.

func init() {
	lang.KindPools = map[string]func(t Type, lits []string) []any{
		kindInt:       lang.IntPool,
		kindFloat:     lang.FloatPool,
		kindBool:      func(Type, []string) []any { return []any{true, false} },
		kindTime:      lang.Rfc3339Pool,
		kindStr:       lang.StrPool,
		kindIntervals: lang.IntervalsPool,
		kindList:      lang.ListsPool,
		kindDict:      lang.DictPool,
		kindAny: func(Type, []string) []any {
			return []any{"abc", 8, "", "8", 8.5, -1, 0, true, false, []any{"a", 1}, map[string]any{"a": 1}, "1,000", 1e20, " 8 ",
				// Numbers at the bounds of the integer types, as numbers
				// and as text: where a conversion picks the signed or the
				// unsigned parse, or a narrower type.
				"-1", "1.0", "0x10", int64(math.MaxInt64), "9223372036854775808", "18446744073709551615", 4294967296}
		},
		kindStruct: lang.StructPool,
		kindFunc:   lang.FuncPool,
		kindWriter: func(Type, []string) []any { return []any{map[string]any{"$writer": true}} },
		kindReader: lang.ReaderPool,
	}
}
