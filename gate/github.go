package gate

import (
	"fmt"
	"io"

	"github.com/premise-dev/premise/internal/annotate"
)

// WriteGitHub writes the report as GitHub Actions workflow commands: an
// error annotation at each row that gates and did not pass, a notice at
// each frozen row, at the row's line in the partition table.
func WriteGitHub(w io.Writer, rep *Report) error {
	for _, r := range rep.Rows {
		if r.Status == StatusPass && !r.Frozen {
			continue
		}
		level := annotate.Error
		if r.Frozen {
			level = annotate.Notice
		}
		title := fmt.Sprintf("premise gate %s %s", r.ID, r.Status)
		if err := annotate.Write(w, level, rep.Source, r.Line, title, fmt.Sprintf("%s (hash %s): %s", r.ID, r.Hash, rowLine(r))); err != nil {
			return err
		}
	}
	return nil
}
