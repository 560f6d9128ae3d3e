package propose

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/premise-dev/premise/diffparse"
	"github.com/premise-dev/premise/prompts"
	"github.com/premise-dev/premise/validate"
)

// EstimateTokens is a rough token count for text: about four bytes a token
// for code and English, which is what budgets need (a tokenizer per model
// would tie premise to one vendor).
func EstimateTokens(s string) int { return (len(s) + 3) / 4 }

// promptSymbols turns the diff's changed symbols into what the prompt shows:
// each symbol's whole head-side source and the hunks touching it.
func promptSymbols(res *diffparse.Result) []prompts.Symbol {
	var out []prompts.Symbol
	for i := range res.Files {
		f := &res.Files[i]
		if f.Excluded != "" {
			continue
		}
		for _, s := range f.Symbols {
			ps := prompts.Symbol{
				Name: s.Name, Kind: s.Kind, Change: s.Change, File: f.Path, Language: f.Language,
				Start: s.Start, End: s.End, Hunks: symbolHunks(f, s),
			}
			if s.Change != "deleted" {
				ps.Source = strings.TrimRight(string(f.SymbolSource(s)), "\n")
			}
			out = append(out, ps)
		}
	}
	return out
}

// symbolHunks renders the lines of the diff inside the symbol's span, with
// up to three lines of context either side, as unified-diff hunks. A hunk
// that covers a whole new or deleted file is cut to the symbol, so ten
// functions of one added file do not each carry the whole file.
func symbolHunks(f *diffparse.File, s diffparse.Symbol) string {
	const ctx = 3
	var b strings.Builder
	for _, h := range f.Hunks {
		// pos is where each line sits on the symbol's side: head lines for
		// a symbol at head, base lines for a deleted one.
		var keep []diffparse.Line
		next := h.NewStart
		for _, l := range h.Lines {
			pos := l.New
			if s.Change == "deleted" {
				pos = l.Old
				if l.Kind == '+' {
					continue
				}
			} else if l.Kind == '-' {
				pos = next
			} else {
				next = l.New + 1
			}
			if pos >= s.Start-ctx && pos <= s.End+ctx {
				keep = append(keep, l)
			}
		}
		changed := false
		for _, l := range keep {
			if l.Kind != ' ' {
				changed = true
			}
		}
		if !changed {
			continue
		}
		oldStart, newStart, oldN, newN := 0, 0, 0, 0
		for _, l := range keep {
			if l.Kind != '+' {
				if oldStart == 0 {
					oldStart = l.Old
				}
				oldN++
			}
			if l.Kind != '-' {
				if newStart == 0 {
					newStart = l.New
				}
				newN++
			}
		}
		fmt.Fprintf(&b, "@@ -%d,%d +%d,%d @@\n", oldStart, oldN, newStart, newN)
		for _, l := range keep {
			b.WriteByte(l.Kind)
			b.WriteString(l.Text)
			b.WriteByte('\n')
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

// chunks packs the changed symbols into requests under the token budget, in
// diff order (one symbol a request with Config.PerSymbol). A symbol that alone exceeds the budget is truncated to fit,
// flagged, and sent on its own, never dropped (issue 3).
func (o *OpenAI) chunks(res *diffparse.Result) [][]prompts.Symbol {
	syms := promptSymbols(res)
	if len(syms) == 0 {
		return nil
	}
	empty, _ := o.Prompt.Render(prompts.AssumptionsData{Symbols: []prompts.Symbol{}})
	overhead := EstimateTokens(empty.System + empty.User)
	room := o.Config.TokenBudget - overhead
	if room < 200 {
		room = 200
	}
	var out [][]prompts.Symbol
	var cur []prompts.Symbol
	used := 0
	for _, s := range syms {
		cost := symbolTokens(s)
		if cost > room {
			s = truncateSymbol(s, room)
			cost = symbolTokens(s)
		}
		if len(cur) > 0 && (o.Config.PerSymbol || used+cost > room) {
			out = append(out, cur)
			cur, used = nil, 0
		}
		cur = append(cur, s)
		used += cost
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}

// symbolTokens estimates what one symbol adds to a prompt: its list entry,
// its source and its hunks, with their frames.
func symbolTokens(s prompts.Symbol) int {
	return EstimateTokens(s.Source) + EstimateTokens(s.Hunks) + EstimateTokens(s.Name+s.File)*2 + 40
}

// truncateSymbol cuts a symbol's source and hunks to about room tokens,
// whole lines only, hunks first in what is kept (they are the change), and
// marks it Truncated so the prompt carries a note.
func truncateSymbol(s prompts.Symbol, room int) prompts.Symbol {
	s.Truncated = true
	budget := (room - EstimateTokens(s.Name+s.File)*2 - 80) * 4
	if budget < 400 {
		budget = 400
	}
	hunkBytes := budget / 2
	if len(s.Source) < budget/2 {
		hunkBytes = budget - len(s.Source)
	}
	s.Hunks = cutLines(s.Hunks, hunkBytes)
	s.Source = cutLines(s.Source, budget-len(s.Hunks))
	return s
}

// cutLines keeps whole lines of s up to n bytes.
func cutLines(s string, n int) string {
	if len(s) <= n {
		return s
	}
	if n <= 0 {
		return "... (truncated)"
	}
	cut := s[:n]
	if i := strings.LastIndexByte(cut, '\n'); i > 0 {
		cut = cut[:i]
	}
	return cut + "\n... (truncated)"
}

// wireItem is one item of the reply as a model writes it. Only symbol,
// precondition and evidence are read; an id or a status the model adds is
// ignored (DESIGN.md: "never trusted").
type wireItem struct {
	Symbol       string `json:"symbol"`
	Precondition string `json:"precondition"`
	Evidence     string `json:"evidence"`
}

// replyJSON is the first JSON value of a model's reply, inside a Markdown
// code fence or after some prose; numbers are kept as written.
func replyJSON(reply string) (json.RawMessage, error) {
	s := strings.TrimSpace(reply)
	if i := strings.Index(s, "```"); i >= 0 {
		rest := s[i+3:]
		if nl := strings.IndexByte(rest, '\n'); nl >= 0 {
			rest = rest[nl+1:]
		}
		if j := strings.Index(rest, "```"); j >= 0 {
			rest = rest[:j]
		}
		s = strings.TrimSpace(rest)
	}
	start := strings.IndexAny(s, "{[")
	if start < 0 {
		if s == "" {
			return nil, errors.New("the reply is empty")
		}
		return nil, fmt.Errorf("no JSON in the reply %q", oneLine(s, 80))
	}
	dec := json.NewDecoder(strings.NewReader(s[start:]))
	dec.UseNumber()
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return nil, fmt.Errorf("the reply is not JSON: %v", err)
	}
	return raw, nil
}

// parseItems reads a model's reply tolerantly: the JSON object of DESIGN.md,
// or a bare array of items, optionally inside a Markdown code fence or after
// some prose. An item that is not an object of strings is kept as a
// malformed candidate so the filter reports it.
func parseItems(reply string) ([]validate.Candidate, error) {
	raw, err := replyJSON(reply)
	if err != nil {
		return nil, err
	}
	var list []json.RawMessage
	if raw[0] == '[' {
		if err := json.Unmarshal(raw, &list); err != nil {
			return nil, err
		}
	} else {
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(raw, &obj); err != nil {
			return nil, err
		}
		items, ok := obj["items"]
		if !ok {
			// One array under another name ("assumptions") is the same answer.
			for _, v := range obj {
				if len(v) > 0 && v[0] == '[' {
					items, ok = v, true
					break
				}
			}
		}
		if !ok {
			if _, single := obj["symbol"]; single {
				list = []json.RawMessage{raw}
			} else {
				return nil, errors.New(`the reply has no "items" list`)
			}
		} else if err := json.Unmarshal(items, &list); err != nil {
			return nil, fmt.Errorf(`"items" is not a list: %v`, err)
		}
	}
	out := make([]validate.Candidate, 0, len(list))
	for _, r := range list {
		var it wireItem
		if err := json.Unmarshal(r, &it); err != nil {
			out = append(out, validate.Candidate{}) // malformed: the filter says so
			continue
		}
		out = append(out, validate.Candidate{Symbol: it.Symbol, Precondition: it.Precondition, Evidence: it.Evidence})
	}
	return out, nil
}
