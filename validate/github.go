package validate

import (
	"io"

	"github.com/premise-dev/premise/internal/annotate"
)

// WriteGitHub writes the register check's findings as GitHub Actions
// workflow commands: an error annotation at each finding's file and line.
func WriteGitHub(w io.Writer, rep *CheckReport) error {
	for _, f := range rep.Findings {
		if err := annotate.Write(w, annotate.Error, f.File, f.Line, "premise check "+f.Check, f.Msg); err != nil {
			return err
		}
	}
	return nil
}
