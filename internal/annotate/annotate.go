// Package annotate writes GitHub Actions workflow commands
// (::error file=...,line=...::message), which the runner shows as
// annotations on the pull request's diff at the line they name.
package annotate

import (
	"fmt"
	"io"
	"strings"
)

// Levels of an annotation.
const (
	Error   = "error"
	Warning = "warning"
	Notice  = "notice"
)

// Write writes one annotation. file and line may be empty and 0 (an
// annotation on the run, not on a line); title may be empty.
func Write(w io.Writer, level, file string, line int, title, msg string) error {
	var props []string
	if file != "" {
		props = append(props, "file="+property(file))
		if line > 0 {
			props = append(props, fmt.Sprintf("line=%d", line))
		}
	}
	if title != "" {
		props = append(props, "title="+property(title))
	}
	p := ""
	if len(props) > 0 {
		p = " " + strings.Join(props, ",")
	}
	_, err := fmt.Fprintf(w, "::%s%s::%s\n", level, p, data(msg))
	return err
}

// data escapes a command's message as the runner unescapes it.
func data(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// property escapes a property's value, where ':' and ',' separate too.
func property(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
