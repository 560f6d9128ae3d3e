package pysource

import (
	"strconv"
	"unicode/utf8"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// maxSteps bounds the expressions StepLiterals returns.
const maxSteps = 12

// StepLiterals returns expr with one of its literals a small step away,
// each: a string's or bytes' text cut to half its length (rounded down to
// even, so hex stays hex), cut by its last two characters, or emptied;
// an integer moved by one each way. Strings with escapes or fields are
// left as they are; nothing when expr does not parse.
func StepLiterals(expr string) []string {
	f, err := Parse("", []byte(expr))
	if err != nil || f.root == nil {
		return nil
	}
	defer f.Close()
	var out []string
	seen := map[string]bool{expr: true}
	add := func(start, end uint, text string) {
		e := expr[:start] + text + expr[end:]
		if len(out) >= maxSteps || seen[e] {
			return
		}
		seen[e] = true
		// A cut next to a quote can close the string early ('''a'''
		// cut to ''''''' ): only steps that still parse are kept.
		if g, err := Parse("", []byte(e)); err == nil {
			if g.SyntaxError() == nil {
				out = append(out, e)
			}
			g.Close()
		}
	}
	var walk func(n *sitter.Node)
	walk = func(n *sitter.Node) {
		if len(out) >= maxSteps {
			return
		}
		switch n.Kind() {
		case "string":
			content, plain := (*sitter.Node)(nil), true
			for i := uint(0); i < n.NamedChildCount(); i++ {
				switch c := n.NamedChild(i); c.Kind() {
				case "string_content":
					content = c
					plain = plain && c.NamedChildCount() == 0 // no escape in it
				case "string_start", "string_end":
				default:
					plain = false // an escape, a field
				}
			}
			if p := n.Parent(); content == nil || !plain || p != nil && p.Kind() == "concatenated_string" {
				return // "a""b" with "a" emptied would open a triple quote
			}
			text := f.text(content)
			for _, cut := range []int{len(text) / 2 &^ 1, len(text) - 2, 0} {
				if cut >= 0 && cut < len(text) {
					for cut > 0 && !utf8.RuneStart(text[cut]) {
						cut--
					}
					add(content.StartByte(), content.EndByte(), text[:cut])
				}
			}
			return
		case "integer":
			v, err := strconv.ParseInt(f.text(n), 0, 64)
			if err != nil {
				return
			}
			for _, d := range []int64{-1, 1} {
				add(n.StartByte(), n.EndByte(), strconv.FormatInt(v+d, 10))
			}
			return
		}
		for i := uint(0); i < n.NamedChildCount(); i++ {
			walk(n.NamedChild(i))
		}
	}
	walk(f.root)
	return out
}
