package prompts

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"text/template"
)

//go:embed text/*.tmpl
var files embed.FS

// Prompt is one embedded template. Its text defines the parts "system" and
// "user", and may define follow-ups such as "repair".
type Prompt struct {
	// Name is the template's file name without ".tmpl": "assumptions".
	Name string
	// SHA256 is the hex sha256 of the template's text, recorded in every
	// register the prompt produced, so a register says exactly what was asked.
	SHA256 string
	tmpl   *template.Template
}

// Messages is a rendered prompt: the system message and the user message of
// a chat request.
type Messages struct {
	System string
	User   string
}

// Symbol is one changed symbol as the assumptions prompt shows it: its whole
// head-side source and the hunks touching it, not the hunk alone (issue 3),
// so the model sees the function it reasons about.
type Symbol struct {
	Name     string // the qualified name the model must cite
	Kind     string // function, method, class, type
	Change   string // added, modified, deleted
	File     string
	Language string
	Start    int    // first head-side line of Source
	End      int    // last head-side line of Source
	Source   string // the symbol's head-side source; "" for a deleted symbol
	Hunks    string // unified diff lines of the hunks touching the symbol
	// Truncated is true when Source or Hunks were cut to fit the token
	// budget; the prompt says so (issue 3: sent truncated with a note).
	Truncated bool
}

// AssumptionsData is the data of the "assumptions" prompt.
type AssumptionsData struct {
	Symbols []Symbol
}

// DroppedRow is a row the filter dropped, sent back in the repair round
// with the reason a careful reviewer would give.
type DroppedRow struct {
	Symbol, Precondition, Evidence string
	Detail                         string
}

// RepairData is the data of the "repair" part of the "assumptions" prompt.
type RepairData struct {
	Dropped []DroppedRow
	Symbols []string // the qualified names the model may cite
}

// InputsData is the data of the "inputs" prompt: one changed function
// the model chooses evidence inputs for (issue 13, part 1).
type InputsData struct {
	Name, Language string
	Params         []string // as written: "text: str", "n int"
	Assumptions    []string // the preconditions not rejected
	Source         string   // head-side source
	BaseSource     string   // base-side source, "" when the same or absent
	Max            int
}

// RowsData is the data of the "rows" prompt: one target's accepted
// assumptions, which a model writes partition rows for (issue 13, part
// 10).
type RowsData struct {
	Name, Language string
	Params         []string // as written
	Assumptions    []RowsAssumption
	Source         string   // the target's head-side source
	Templates      []string // the template rows already written, one line each
	Max            int
}

// RowsAssumption is one accepted assumption as the rows prompt shows it.
type RowsAssumption struct {
	ID, Precondition string
}

var funcs = template.FuncMap{"join": strings.Join}

// Get returns the embedded prompt called name.
func Get(name string) (*Prompt, error) {
	text, err := files.ReadFile("text/" + name + ".tmpl")
	if err != nil {
		return nil, fmt.Errorf("prompt %q: no such prompt (have %s)", name, strings.Join(Names(), ", "))
	}
	t, err := template.New(name).Funcs(funcs).Option("missingkey=error").Parse(string(text))
	if err != nil {
		return nil, fmt.Errorf("prompt %q: %w", name, err)
	}
	sum := sha256.Sum256(text)
	return &Prompt{Name: name, SHA256: hex.EncodeToString(sum[:]), tmpl: t}, nil
}

// Names returns the names of the embedded prompts, sorted.
func Names() []string {
	ents, _ := fs.ReadDir(files, "text")
	var out []string
	for _, e := range ents {
		out = append(out, strings.TrimSuffix(path.Base(e.Name()), ".tmpl"))
	}
	sort.Strings(out)
	return out
}

// Render renders the prompt's system and user messages with data.
func (p *Prompt) Render(data any) (Messages, error) {
	sys, err := p.Part("system", data)
	if err != nil {
		return Messages{}, err
	}
	user, err := p.Part("user", data)
	if err != nil {
		return Messages{}, err
	}
	return Messages{System: sys, User: user}, nil
}

// Part renders one named part of the prompt ("system", "user", "repair").
func (p *Prompt) Part(part string, data any) (string, error) {
	if p.tmpl.Lookup(part) == nil {
		return "", fmt.Errorf("prompt %q has no part %q", p.Name, part)
	}
	var b bytes.Buffer
	if err := p.tmpl.ExecuteTemplate(&b, part, data); err != nil {
		return "", fmt.Errorf("render prompt %q part %q: %w", p.Name, part, err)
	}
	return b.String(), nil
}

// Render renders the system and user messages of the prompt called name.
func Render(name string, data any) (Messages, error) {
	p, err := Get(name)
	if err != nil {
		return Messages{}, err
	}
	return p.Render(data)
}
