package propose

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"text/tabwriter"

	openai "github.com/sashabaranov/go-openai"
)

// Support is what `premise model check` learned about an endpoint and a
// model from one tiny request (and one more per refused parameter).
type Support struct {
	Endpoint   string // as messages show it: no password
	Model      string
	Reachable  bool   // an HTTP answer came back
	Auth       string // ok, refused or unknown
	ModelFound string // yes, no or unknown
	// Params says, for temperature, seed, max_tokens and response_format
	// in that order, whether the endpoint takes them.
	Params      []ParamSupport
	ReplyIsJSON bool
	// Usable is whether premise propose can work with the endpoint;
	// Problem says why not, on one line, scrubbed of secrets.
	Usable  bool
	Problem string
	// Remembered is the file that now holds what the endpoint refused, so
	// the next run does not pay the refusal; "" with --no-cache.
	Remembered string
	Requests   int
}

// ParamSupport is one parameter's answer: Status is accepted, refused or
// unknown (the request failed before it could tell).
type ParamSupport struct {
	Name, Status, Detail string
}

// checkConversation is the tiny request: the answer it asks for fits the
// reply schema, so the structured format is tried for real.
var checkConversation = []openai.ChatCompletionMessage{
	{Role: openai.ChatMessageRoleSystem, Content: "You answer with one JSON object and nothing else."},
	{Role: openai.ChatMessageRoleUser, Content: `Reply with exactly this JSON object: {"items": []}`},
}

// Check sends the tiny request with every parameter premise uses, drops
// each one the endpoint refuses as a run would, and reports what it
// found. It starts afresh, whatever earlier runs remembered, and writes
// what it learned to the memory file. The error is only the context's:
// an endpoint that does not answer, or answers no, is a Support.
func (o *OpenAI) Check(ctx context.Context) (*Support, error) {
	o.wireOnce.Do(func() {}) // probe afresh: the memory is relearned, not read
	s := &Support{Endpoint: o.endpointName(), Model: o.Config.Model, Auth: "unknown", ModelFound: "unknown"}
	var resp openai.ChatCompletionResponse
	var err error
	for tries := 0; ; tries++ {
		o.mu.Lock()
		w := o.wire
		o.mu.Unlock()
		resp, _, err = o.send(ctx, checkConversation, w)
		if err == nil || tries >= 2*len(tunable) || !o.adapt(w, err) {
			break
		}
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	o.mu.Lock()
	w := o.wire
	s.Reachable, s.Requests = o.answered, o.usage.Requests
	if err == nil {
		s.Remembered = o.saveWire()
	} else if len(o.learned) > 0 {
		s.Remembered = o.memoryPath()
	}
	o.mu.Unlock()
	s.Params = paramSupport(w, err == nil)
	if err != nil {
		o.diagnose(s, err)
		return s, nil
	}
	s.Auth, s.ModelFound = "ok", "yes"
	text, rerr := replyText(resp)
	if rerr != nil {
		var cut *cutShortError
		var ref *refusalError
		if !errors.As(rerr, &cut) && !errors.As(rerr, &ref) {
			s.Problem = oneLine(o.scrub(rerr.Error()), 300)
			return s, nil
		}
	}
	_, perr := parseItems(text)
	s.ReplyIsJSON = rerr == nil && perr == nil
	s.Usable = true
	return s, nil
}

// modelMissing are the words servers use for a model they do not have
// (OpenAI "does not exist", Ollama "not found, try pulling it first",
// OpenRouter "is not a valid model ID").
var modelMissing = []string{"does not exist", "not found", "not a valid model", "no such model", "unknown model", "model_not_found"}

// diagnose fills s from the error that ended the check.
func (o *OpenAI) diagnose(s *Support, err error) {
	status, msg := 0, ""
	var ae *openai.APIError
	var re *openai.RequestError
	var pr *paramRefusal
	switch {
	case errors.As(err, &pr):
		status, msg = pr.Status, pr.Message
	case errors.As(err, &ae):
		status, msg = ae.HTTPStatusCode, ae.Message
		if ae.Code != nil {
			msg += fmt.Sprintf(" (%v)", ae.Code)
		}
	case errors.As(err, &re):
		status, msg = re.HTTPStatusCode, string(re.Body)
	}
	problem := o.endpointError(err).Error()
	lower := strings.ToLower(msg)
	switch {
	case !s.Reachable:
		problem += "; is the server running, and is the base URL right?"
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		s.Auth = "refused"
		if o.apiKey == "" && o.Config.APIKeyEnv != "" {
			problem += fmt.Sprintf("; the environment variable %s is empty (--api-key-env names another)", o.Config.APIKeyEnv)
		}
	case (status == http.StatusNotFound || status == http.StatusBadRequest) && strings.Contains(lower, "model") && containsAny(lower, modelMissing):
		s.Auth, s.ModelFound = "ok", "no"
	case status == http.StatusNotFound:
		s.Auth = "ok"
		problem += "; is the base URL right? premise posts to BASE/chat/completions, so BASE usually ends in /v1"
	case status != 0 && status < 500:
		s.Auth = "ok"
	}
	s.Problem = oneLine(o.scrub(problem), 400)
}

func containsAny(s string, words []string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// paramSupport reads the four parameters' answers off the parameters that
// survived; ok says the last request was answered.
func paramSupport(w wireParams, ok bool) []ParamSupport {
	took := func(name, detail string) ParamSupport {
		if ok {
			return ParamSupport{Name: name, Status: "accepted", Detail: detail}
		}
		return ParamSupport{Name: name, Status: "unknown", Detail: "not refused before the request failed"}
	}
	refused := func(name, detail string) ParamSupport {
		return ParamSupport{Name: name, Status: "refused", Detail: detail}
	}
	var out []ParamSupport
	if w.NoTemperature {
		out = append(out, refused(paramTemperature, "not sent: the model samples at its default, so replies may vary between runs"))
	} else {
		out = append(out, took(paramTemperature, "sent as 0"))
	}
	if w.NoSeed {
		out = append(out, refused(paramSeed, "not sent"))
	} else {
		out = append(out, took(paramSeed, "sent"))
	}
	switch w.Limit {
	case limitMaxTokens:
		out = append(out, took(paramMaxTokens, "sent"))
	case limitMaxCompletionTokens:
		p := refused(paramMaxTokens, "max_completion_tokens sent instead")
		if ok {
			p.Detail = "max_completion_tokens accepted instead"
		}
		out = append(out, p)
	default:
		out = append(out, refused(paramMaxTokens, "and max_completion_tokens: the server's own output limit applies"))
	}
	switch w.Format {
	case 0:
		out = append(out, took(paramResponseFormat, "json_schema"))
	case len(formats) - 1:
		out = append(out, refused(paramResponseFormat, "json_schema and json_object refused: replies are asked for as plain text and parsed tolerantly"))
	default:
		p := took(paramResponseFormat, formats[w.Format]+" (json_schema refused)")
		if !ok {
			p.Detail = "json_schema refused; " + formats[w.Format] + " not yet answered"
		}
		out = append(out, p)
	}
	return out
}

// supportJSON is the --json shape of a check (a wire type: stable keys,
// lists never null).
type supportJSON struct {
	Endpoint    string      `json:"endpoint"`
	Model       string      `json:"model"`
	Usable      bool        `json:"usable"`
	Reachable   bool        `json:"reachable"`
	Auth        string      `json:"auth"`
	ModelFound  string      `json:"model_found"`
	Parameters  []paramJSON `json:"parameters"`
	ReplyIsJSON bool        `json:"reply_is_json"`
	Problem     string      `json:"problem"`
	Remembered  string      `json:"remembered_in"`
	Requests    int         `json:"requests"`
}

type paramJSON struct {
	Name   string `json:"name"`
	Status string `json:"status"`
	Detail string `json:"detail"`
}

// WriteSupportJSON writes s as one JSON object.
func WriteSupportJSON(w io.Writer, s *Support) error {
	j := supportJSON{Endpoint: s.Endpoint, Model: s.Model, Usable: s.Usable, Reachable: s.Reachable,
		Auth: s.Auth, ModelFound: s.ModelFound, Parameters: []paramJSON{}, ReplyIsJSON: s.ReplyIsJSON,
		Problem: s.Problem, Remembered: s.Remembered, Requests: s.Requests}
	for _, p := range s.Params {
		j.Parameters = append(j.Parameters, paramJSON(p))
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(j)
}

// WriteSupport writes s for a human: one line per question, then the
// verdict.
func WriteSupport(w io.Writer, s *Support) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	yes := func(b bool) string {
		if b {
			return "yes"
		}
		return "no"
	}
	fmt.Fprintf(tw, "endpoint\t%s\n", s.Endpoint)
	fmt.Fprintf(tw, "model\t%s\n", s.Model)
	fmt.Fprintf(tw, "reachable\t%s\n", yes(s.Reachable))
	fmt.Fprintf(tw, "auth\t%s\n", s.Auth)
	fmt.Fprintf(tw, "model found\t%s\n", s.ModelFound)
	for _, p := range s.Params {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", p.Name, p.Status, p.Detail)
	}
	if s.Usable {
		fmt.Fprintf(tw, "reply is JSON\t%s\n", yes(s.ReplyIsJSON))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	var err error
	switch {
	case s.Usable && s.Remembered != "":
		_, err = fmt.Fprintf(w, "usable: yes (%d requests); what it refused is remembered in %s\n", s.Requests, s.Remembered)
	case s.Usable:
		_, err = fmt.Fprintf(w, "usable: yes (%d requests)\n", s.Requests)
	default:
		_, err = fmt.Fprintf(w, "usable: no: %s\n", s.Problem)
	}
	return err
}
