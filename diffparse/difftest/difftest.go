// Package difftest builds the changed files tests of the evidence's
// languages read, without a repository.
package difftest

import (
	"strings"

	"github.com/premise-dev/premise/diffparse"
)

// File is a file of path in language whose base and head differ by the
// lines between their longest common prefix and suffix, as one hunk.
func File(language, path, base, head string) diffparse.File {
	b, h := strings.Split(base, "\n"), strings.Split(head, "\n")
	p := 0
	for p < len(b) && p < len(h) && b[p] == h[p] {
		p++
	}
	s := 0
	for s < len(b)-p && s < len(h)-p && b[len(b)-1-s] == h[len(h)-1-s] {
		s++
	}
	var hunk diffparse.Hunk
	for i := p; i < len(b)-s; i++ {
		hunk.Lines = append(hunk.Lines, diffparse.Line{Kind: '-', Old: i + 1, Text: b[i]})
	}
	for i := p; i < len(h)-s; i++ {
		hunk.Lines = append(hunk.Lines, diffparse.Line{Kind: '+', New: i + 1, Text: h[i]})
	}
	return diffparse.File{Path: path, Language: language, Status: "modified", BaseSrc: []byte(base), HeadSrc: []byte(head), Hunks: []diffparse.Hunk{hunk}}
}
