package validate

import (
	"fmt"
	"strings"
)

// Problem is one thing wrong with a file: where it is and what it is.
type Problem struct {
	File string `json:"file"`
	Line int    `json:"line,omitempty"` // 0 when the problem has no single line
	Msg  string `json:"message"`
}

// String formats the problem as file:line: message, the form editors and CI
// logs link to.
func (p Problem) String() string {
	switch {
	case p.File == "" && p.Line == 0:
		return p.Msg
	case p.Line == 0:
		return fmt.Sprintf("%s: %s", p.File, p.Msg)
	default:
		return fmt.Sprintf("%s:%d: %s", p.File, p.Line, p.Msg)
	}
}

// LoadError lists every problem found while loading a register or a
// partition table, not just the first (issue 4: "loading reports every
// problem with file:line"). Problems are in file order.
type LoadError struct {
	File     string
	Problems []Problem
}

// Error returns the problems, one per line.
func (e *LoadError) Error() string {
	if len(e.Problems) == 1 {
		return e.Problems[0].String()
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d problems", e.File, len(e.Problems))
	for _, p := range e.Problems {
		b.WriteString("\n")
		b.WriteString(p.String())
	}
	return b.String()
}
