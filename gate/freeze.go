package gate

import (
	"time"

	"github.com/premise-dev/premise/validate"
)

// The freezes file is one of the formats validate owns (premise check reads
// it too); the gate reads it through these names.

// DefaultFreezesPath is where seed 004 keeps frozen rows.
const DefaultFreezesPath = validate.DefaultFreezesPath

// Freeze is one entry of the freezes file (validate.Freeze).
type Freeze = validate.Freeze

// Freezes is the whole freezes file: row hash -> freeze.
type Freezes = validate.Freezes

// LoadFreezes reads a freezes file; a missing one is no freezes.
func LoadFreezes(path string) (Freezes, error) { return validate.LoadFreezes(path) }

// ParseFreezes parses the bytes of a freezes file; name is used in errors.
func ParseFreezes(name string, data []byte) (Freezes, error) {
	return validate.ParseFreezes(name, data)
}

// NewFreeze returns a freeze of rowID made now (validate.NewFreeze).
func NewFreeze(rowID, reason, replacement string, now time.Time, commit string) Freeze {
	return validate.NewFreeze(rowID, reason, replacement, now, commit)
}
