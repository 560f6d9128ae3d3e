package propose

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"unicode"
	"unicode/utf8"

	"github.com/premise-dev/premise/diffparse"
	"github.com/premise-dev/premise/validate"
)

// Proposer drafts candidate assumptions for the changed symbols of a diff
// and filters them against the diff's index. premise ships two: the static
// rules (Static) and a model behind an OpenAI-compatible endpoint (OpenAI).
//
// Propose returns an error only when the run could not happen (an endpoint
// unreachable after its retries, a reply that is not JSON after the repair
// round); rows the filter drops are results, in Result.Dropped.
type Proposer interface {
	// Name is recorded as the register's model: "static" or the model name.
	Name() string
	Propose(ctx context.Context, res *diffparse.Result, ix *validate.Index) (*Result, error)
}

// Result is one proposer run: the rows that survived the filter, those that
// did not (with reasons), findings about the diff itself, and what the run
// cost.
type Result struct {
	validate.FilterResult
	Findings []Finding `json:"findings"`
	Usage    Usage     `json:"usage"`
}

// Usage is what a model-backed run cost, reported in the run summary.
type Usage struct {
	Requests         int `json:"requests"`   // HTTP requests sent, retries included
	CacheHits        int `json:"cache_hits"` // chunks answered from the cache
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	Chunks           int `json:"chunks"`
	RepairRounds     int `json:"repair_rounds"` // chunks that got a repair round
	Repaired         int `json:"repaired"`      // rows kept after the repair round
	// Truncated names the symbols sent truncated to fit the token budget.
	Truncated []string `json:"truncated,omitempty"`
	// Fallbacks records response_format downgrades the endpoint forced
	// ("json_schema -> json_object").
	Fallbacks []string `json:"fallbacks,omitempty"`
}

// Finding is something about the diff a reviewer must see that is not an
// assumption, such as Trojan Source characters (issue 3).
type Finding struct {
	Rule    string `json:"rule"`
	File    string `json:"file"`
	Line    int    `json:"line"`
	Message string `json:"message"`
}

// Draft runs p over res and adds the findings every run reports whatever
// the proposer: bidirectional-control and invisible characters in added
// lines.
func Draft(ctx context.Context, p Proposer, res *diffparse.Result) (*Result, error) {
	ix := validate.NewIndex(res)
	out, err := p.Propose(ctx, res, ix)
	if err != nil {
		return nil, err
	}
	out.Findings = append(TrojanSource(res), out.Findings...)
	return out, nil
}

// TrojanSource reports added lines holding bidirectional-control or
// invisible characters (CVE-2021-42574, "Trojan Source": U+202A-U+202E,
// U+2066-U+2069, and zero-width or other format characters), which make
// the code a reviewer reads differ from the code that runs.
func TrojanSource(res *diffparse.Result) []Finding {
	var out []Finding
	for _, f := range res.Files {
		for _, h := range f.Hunks {
			for _, l := range h.Lines {
				if l.Kind != '+' {
					continue
				}
				if r, ok := hiddenRune(l.Text); ok {
					out = append(out, Finding{
						Rule: "trojan-source", File: f.Path, Line: l.New,
						Message: fmt.Sprintf("added line holds %s (U+%04X): the text shown is not the text that runs", runeKind(r), r),
					})
				}
			}
		}
	}
	return out
}

func hiddenRune(s string) (rune, bool) {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		switch {
		case r >= 0x202A && r <= 0x202E, r >= 0x2066 && r <= 0x2069, r == 0x200E, r == 0x200F, r == 0x061C:
			return r, true
		case r == 0xFEFF && i > n, r == 0x200B, r == 0x200C, r == 0x200D, r == 0x2060, r == 0x00AD:
			return r, true
		case unicode.Is(unicode.Cf, r) && r != 0xFEFF:
			return r, true
		}
	}
	return 0, false
}

func runeKind(r rune) string {
	if r >= 0x202A && r <= 0x202E || r >= 0x2066 && r <= 0x2069 || r == 0x200E || r == 0x200F || r == 0x061C {
		return "a bidirectional control character"
	}
	return "an invisible character"
}

// prompter is implemented by proposers that can say what they asked: the
// prompt's name and sha256, recorded in the register's provenance.
type prompter interface {
	PromptInfo() (name, sha256 string)
}

// PromptInfo names the assumptions prompt and its sha256.
func (o *OpenAI) PromptInfo() (string, string) { return o.Prompt.Name, o.Prompt.SHA256 }

// PromptInfo names the static rules and a sha256 over their names and docs,
// so a register says which rule set drafted it.
func (s *Static) PromptInfo() (string, string) {
	h := sha256.New()
	for _, r := range s.Rules {
		fmt.Fprintf(h, "%s\x00%s\x00%s\n", r.Language, r.Name, r.Doc)
	}
	return "static-rules", hex.EncodeToString(h.Sum(nil))
}

// ProvenanceOf is the register provenance of a run of p over res: the
// commits, the model, and the prompt (or rule set) with its sha256.
func ProvenanceOf(p Proposer, res *diffparse.Result) validate.Provenance {
	prov := validate.Provenance{Base: res.Base, Head: res.Head, MergeBase: res.MergeBase, Model: p.Name()}
	if pi, ok := p.(prompter); ok {
		prov.Prompt, prov.PromptSHA256 = pi.PromptInfo()
	}
	return prov
}
