package propose

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	openai "github.com/sashabaranov/go-openai"

	"github.com/premise-dev/premise/internal/atomicfile"
)

// The request parameters premise sets that some endpoints refuse (issue 15,
// part 5): reasoning models take no temperature but their default and want
// max_completion_tokens for max_tokens; some servers know no seed; many
// know no response_format, or not its json_schema kind.
const (
	paramTemperature         = "temperature"
	paramSeed                = "seed"
	paramMaxTokens           = "max_tokens"
	paramMaxCompletionTokens = "max_completion_tokens"
	paramResponseFormat      = "response_format"
)

// tunable lists them in the order a refusal is looked for.
var tunable = []string{paramMaxTokens, paramMaxCompletionTokens, paramTemperature, paramSeed, paramResponseFormat}

// Output-limit fields: which one carries Config.MaxOutputTokens.
const (
	limitMaxTokens           = ""                       // max_tokens, understood by every server
	limitMaxCompletionTokens = paramMaxCompletionTokens // what newer OpenAI models want
	limitNone                = "none"                   // the server's own limit
)

// wireParams says which of premise's optional parameters go on the wire to
// one endpoint and model. The zero value sends them all, the richest
// response format first; each refusal takes one thing away, so a run asks
// again at most a handful of times.
type wireParams struct {
	NoTemperature bool
	NoSeed        bool
	Limit         string // limitMaxTokens, limitMaxCompletionTokens or limitNone
	Format        int    // index into formats
}

// paramRefusal is an endpoint's answer that it does not take one or more
// of the parameters the request sent. Its message is the endpoint's,
// scrubbed and on one line.
type paramRefusal struct {
	Status  int
	Params  []string // as sent: max_tokens, temperature, seed, response_format ...
	Message string
	// Replacement is max_completion_tokens when the endpoint names it as
	// the field to use instead of max_tokens.
	Replacement string
}

func (e *paramRefusal) Error() string {
	if e.Status == 0 {
		return e.Message
	}
	return fmt.Sprintf("HTTP %d: %s", e.Status, e.Message)
}

// without returns w less what r refuses, and one line per change
// ("max_tokens -> max_completion_tokens", "json_schema -> json_object",
// "temperature not sent"). No change means the refusal cannot be worked
// around.
func (w wireParams) without(r *paramRefusal) (wireParams, []string) {
	var changes []string
	for _, p := range r.Params {
		switch p {
		case paramTemperature:
			if !w.NoTemperature {
				w.NoTemperature = true
				changes = append(changes, "temperature not sent")
			}
		case paramSeed:
			if !w.NoSeed {
				w.NoSeed = true
				changes = append(changes, "seed not sent")
			}
		case paramMaxTokens:
			if w.Limit == limitMaxTokens {
				if r.Replacement == paramMaxCompletionTokens {
					w.Limit = limitMaxCompletionTokens
					changes = append(changes, "max_tokens -> max_completion_tokens")
				} else {
					w.Limit = limitNone
					changes = append(changes, "max_tokens not sent")
				}
			}
		case paramMaxCompletionTokens:
			if w.Limit == limitMaxCompletionTokens {
				w.Limit = limitNone
				changes = append(changes, "max_completion_tokens not sent")
			}
		case paramResponseFormat:
			if w.Format < len(formats)-1 {
				changes = append(changes, formats[w.Format]+" -> "+formats[w.Format+1])
				w.Format++
			}
		}
	}
	return w, changes
}

// sentParams returns which tunable parameters the request body carries.
func sentParams(body []byte) map[string]bool {
	var m map[string]json.RawMessage
	if json.Unmarshal(body, &m) != nil {
		return nil
	}
	sent := map[string]bool{}
	for _, p := range tunable {
		if _, ok := m[p]; ok {
			sent[p] = true
		}
	}
	return sent
}

// errorBody is the part of an error reply that can name a parameter, in
// the shapes servers use: OpenAI's {"error": {"message", "param", "code"}},
// vLLM's older top-level {"object": "error", "message", "param"}, LM
// Studio's {"error": "text"}, OpenRouter's {"error": {"metadata": {"raw"}}}
// holding the provider's own body, and FastAPI's 422 {"detail": [{"loc":
// ["body", "seed"], "msg"}]} (Mistral wraps that into "message").
type errorBody struct {
	Error   json.RawMessage `json:"error"`
	Message json.RawMessage `json:"message"`
	Param   json.RawMessage `json:"param"`
	Detail  json.RawMessage `json:"detail"`
}

// namedParams walks an error body and collects the parameters it names in
// structured fields (param, loc) and the text of its messages.
func namedParams(data []byte, depth int) (params []string, text []string) {
	if depth > 8 {
		return nil, nil
	}
	var s string
	if json.Unmarshal(data, &s) == nil {
		// A string may itself be a JSON body (OpenRouter's metadata.raw).
		if t := strings.TrimSpace(s); strings.HasPrefix(t, "{") {
			p, tx := namedParams([]byte(t), depth+1)
			return p, append(tx, s)
		}
		return nil, []string{s}
	}
	var arr []json.RawMessage
	if json.Unmarshal(data, &arr) == nil {
		for _, a := range arr {
			p, tx := namedParams(a, depth+1)
			params, text = append(params, p...), append(text, tx...)
		}
		return params, text
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(data, &obj) != nil {
		return nil, nil
	}
	for k, v := range obj {
		switch k {
		case "param":
			var p string
			if json.Unmarshal(v, &p) == nil && p != "" {
				params = append(params, p)
			}
		case "loc":
			var loc []any
			if json.Unmarshal(v, &loc) == nil {
				for _, l := range loc {
					if ls, ok := l.(string); ok && ls != "body" {
						params = append(params, ls)
						break
					}
				}
			}
		case "message", "msg", "error", "detail", "metadata", "raw", "code", "type":
			p, tx := namedParams(v, depth+1)
			params, text = append(params, p...), append(text, tx...)
		}
	}
	return params, text
}

// refusalWords are how servers say no to a parameter; a message must use
// one of them, besides naming a parameter premise sent, to be a refusal.
var refusalWords = []string{
	"unsupported", "not supported", "does not support", "doesn't support", "unrecognized",
	"unknown", "not allowed", "not permitted", "extra inputs", "extra_forbidden", "invalid",
	"must be", "only the default", "no endpoints found", "not available", "cannot be used",
	"can't be used", "not compatible", "incompatible", "deprecated", "is not a valid",
	"use 'max_completion_tokens'", "must be omitted",
}

// formatWords name the response format without saying response_format.
var formatWords = []string{"json_schema", "json_object", "structured output", "response format", "guided_json", "guided decoding"}

// refusalOf reads an error reply to a request whose body was reqBody and
// returns the refusal it is, or nil. A 400, 404 (OpenRouter's "No endpoints
// found that support ..."), 422 or 5xx (llama.cpp answers 500 to a
// json_schema it does not know) counts when the reply names a parameter
// the request sent, in a param or loc field or in a message that says no.
func refusalOf(status int, respBody, reqBody []byte, scrub func(string) string) *paramRefusal {
	switch {
	case status == http.StatusBadRequest, status == http.StatusNotFound, status == http.StatusUnprocessableEntity, status >= 500:
	default:
		return nil
	}
	sent := sentParams(reqBody)
	if len(sent) == 0 {
		return nil
	}
	fields, texts := namedParams(respBody, 0)
	if len(fields) == 0 && len(texts) == 0 {
		texts = []string{string(respBody)} // not JSON: a plain-text error page
	}
	msg := strings.ToLower(strings.Join(texts, " "))
	r := &paramRefusal{Status: status}
	seen := map[string]bool{}
	add := func(p string) {
		if sent[p] && !seen[p] {
			seen[p] = true
			r.Params = append(r.Params, p)
		}
	}
	// A structured field is the server's own word on which parameter:
	// trust it over the prose (OpenAI's "Use 'max_completion_tokens'
	// instead" names a second field that was not sent anyway).
	for _, f := range fields {
		f = strings.ToLower(f)
		if i := strings.IndexAny(f, ".["); i > 0 {
			f = f[:i] // response_format.type, response_format[json_schema]
		}
		add(f)
	}
	if len(r.Params) == 0 && saysNo(msg) {
		for _, p := range tunable {
			if namesWord(msg, p) {
				add(p)
			}
		}
		if sent[paramResponseFormat] {
			for _, w := range formatWords {
				if strings.Contains(msg, w) {
					add(paramResponseFormat)
				}
			}
		}
	}
	if len(r.Params) == 0 {
		return nil
	}
	if seen[paramMaxTokens] && strings.Contains(msg, paramMaxCompletionTokens) {
		r.Replacement = paramMaxCompletionTokens
	}
	r.Message = oneLine(scrub(strings.Join(texts, " ")), 200)
	if r.Message == "" {
		r.Message = "refused " + strings.Join(r.Params, ", ")
	}
	return r
}

func saysNo(msg string) bool {
	for _, w := range refusalWords {
		if strings.Contains(msg, w) {
			return true
		}
	}
	return false
}

var wordCache = map[string]*regexp.Regexp{}

func init() {
	for _, p := range tunable {
		wordCache[p] = regexp.MustCompile(`(^|[^a-z0-9_])` + regexp.QuoteMeta(p) + `([^a-z0-9_]|$)`)
	}
}

// namesWord reports whether msg names the parameter p as a whole word
// (seed, not seeded; max_tokens, not max_completion_tokens).
func namesWord(msg, p string) bool { return wordCache[p].MatchString(msg) }

// clientRefusal maps go-openai's own checks, made before anything is sent
// (models named o1..., o3..., o4..., gpt-5...), to the refusal the
// endpoint would have answered.
func clientRefusal(err error) *paramRefusal {
	switch {
	case errors.Is(err, openai.ErrReasoningModelMaxTokensDeprecated):
		return &paramRefusal{Params: []string{paramMaxTokens}, Replacement: paramMaxCompletionTokens, Message: err.Error()}
	case errors.Is(err, openai.ErrReasoningModelLimitationsOther), errors.Is(err, openai.ErrReasoningSamplingUnsupported):
		return &paramRefusal{Params: []string{paramTemperature}, Message: err.Error()}
	}
	return nil
}

// asRefusal returns the refusal err carries, from the endpoint or from the
// client library, or nil.
func asRefusal(err error) *paramRefusal {
	var r *paramRefusal
	if errors.As(err, &r) {
		return r
	}
	return clientRefusal(err)
}

// endpointMemory is the file that remembers, per endpoint and model, what
// the endpoint refused, so the next run does not pay the refusal again. It
// sits in the reply cache dir and holds neither the key nor a password in
// the URL.
type endpointMemory struct {
	Endpoint       string   `json:"endpoint"`
	Model          string   `json:"model"`
	Temperature    bool     `json:"send_temperature"`
	Seed           bool     `json:"send_seed"`
	OutputLimit    string   `json:"output_limit"` // max_tokens, max_completion_tokens or none
	ResponseFormat string   `json:"response_format"`
	Learned        []string `json:"learned"`
}

// memoryPath is the endpoint+model's memory file, or "" without a cache.
func (o *OpenAI) memoryPath() string {
	dir := o.cacheDir()
	if o.Config.NoCache || dir == "" {
		return ""
	}
	h := sha256.Sum256([]byte(strings.TrimRight(o.Config.Endpoint, "/") + "\n" + o.Config.Model))
	return filepath.Join(dir, "endpoints", hex.EncodeToString(h[:8])+".json")
}

// loadWire reads what earlier runs learned about the endpoint, once. A
// missing or unreadable file is a fresh start.
func (o *OpenAI) loadWire() {
	o.wireOnce.Do(func() {
		p := o.memoryPath()
		if p == "" {
			return
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return
		}
		var m endpointMemory
		if json.Unmarshal(data, &m) != nil || m.Model != o.Config.Model {
			return
		}
		w := wireParams{NoTemperature: !m.Temperature, NoSeed: !m.Seed}
		switch m.OutputLimit {
		case paramMaxTokens:
			w.Limit = limitMaxTokens
		case paramMaxCompletionTokens:
			w.Limit = limitMaxCompletionTokens
		case limitNone:
			w.Limit = limitNone
		default:
			return
		}
		found := false
		for i, f := range formats {
			if f == m.ResponseFormat {
				w.Format, found = i, true
			}
		}
		if !found {
			return
		}
		o.mu.Lock()
		o.wire, o.learned = w, m.Learned
		o.mu.Unlock()
		if o.Log != nil && w != (wireParams{}) {
			fmt.Fprintf(o.Log, "premise: %s: model %s: %s (remembered in %s)\n", o.endpointName(), o.Config.Model, strings.Join(m.Learned, ", "), p)
		}
	})
}

// saveWire writes the memory file; the caller holds o.mu. A file that
// cannot be written costs a refusal next time; it does not fail the run.
func (o *OpenAI) saveWire() string {
	p := o.memoryPath()
	if p == "" {
		return ""
	}
	w := o.wire
	m := endpointMemory{
		Endpoint: o.scrub(o.endpointName()), Model: o.Config.Model,
		Temperature: !w.NoTemperature, Seed: !w.NoSeed,
		OutputLimit: w.Limit, ResponseFormat: formats[w.Format],
		Learned: append([]string{}, o.learned...),
	}
	if m.OutputLimit == limitMaxTokens {
		m.OutputLimit = paramMaxTokens
	}
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return ""
	}
	data = append(data, '\n')
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return ""
	}
	if atomicfile.WriteFile(p, data, 0o600) != nil {
		return ""
	}
	return p
}

// adapt handles a refusal of the request sent with w: it takes the refused
// parameters away for every later request of this endpoint and model,
// remembers that, and reports whether asking again can help.
func (o *OpenAI) adapt(w wireParams, err error) bool {
	r := asRefusal(err)
	if r == nil {
		return false
	}
	next, changes := w.without(r)
	if len(changes) == 0 {
		return false
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.wire != w {
		return true // another chunk already learned something: ask with that
	}
	o.wire = next
	o.learned = append(o.learned, changes...)
	for _, c := range changes {
		if strings.Contains(c, "->") && strings.HasPrefix(c, "json") {
			o.usage.Fallbacks = append(o.usage.Fallbacks, c)
		}
	}
	where := o.saveWire()
	if o.Log != nil {
		line := fmt.Sprintf("premise: %s: model %s refused %s (%s); asking again: %s", o.endpointName(), o.Config.Model, strings.Join(r.Params, ", "), r.Error(), strings.Join(changes, ", "))
		if where != "" {
			line += "; remembered in " + where
		}
		fmt.Fprintln(o.Log, o.scrub(line))
	}
	return true
}
