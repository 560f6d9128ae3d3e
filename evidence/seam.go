package evidence

import "github.com/premise-dev/premise/evidence/lang"

// The seam's shared types under the names the engine has always used.
type (
	Type      = lang.Type
	Field     = lang.Field
	Param     = lang.Param
	Signature = lang.Signature
)

// Kinds of parameter, as the seam declares them.
const (
	kindUnknown   = lang.KindUnknown
	kindInt       = lang.KindInt
	kindFloat     = lang.KindFloat
	kindStr       = lang.KindStr
	kindBool      = lang.KindBool
	kindList      = lang.KindList
	kindIntervals = lang.KindIntervals
	kindDict      = lang.KindDict
	kindTime      = lang.KindTime
	kindAny       = lang.KindAny
	kindStruct    = lang.KindStruct
	kindFunc      = lang.KindFunc
	kindWriter    = lang.KindWriter
	kindReader    = lang.KindReader
)

// ModelCall is one call a model proposed for a target: part of Config's
// Inputs, as the seam declares it.
type ModelCall = lang.ModelCall
