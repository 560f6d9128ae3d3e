package propose

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/premise-dev/premise/diffparse"
	"github.com/premise-dev/premise/internal/atomicfile"
	"github.com/premise-dev/premise/prompts"
	"github.com/premise-dev/premise/validate"
)

// chatAPI is the one call the OpenAI back end makes.
type chatAPI interface {
	CreateChatCompletion(ctx context.Context, req openai.ChatCompletionRequest) (openai.ChatCompletionResponse, error)
}

// OpenAI is the proposer behind an OpenAI-compatible Chat Completions
// endpoint (OpenAI, OpenRouter, Ollama, vLLM, llama.cpp, LM Studio).
type OpenAI struct {
	Config Config
	Prompt *prompts.Prompt
	// HTTP sends the requests; nil is a client with Config.Timeout.
	HTTP *http.Client
	// Backoff is the first retry's delay before jitter; it doubles per
	// attempt. Zero is one second.
	Backoff time.Duration
	// Log, when set, receives one line per attempt and retry. It never sees
	// the key: every line is scrubbed (see scrub).
	Log io.Writer
	// MaxReply caps the size of one reply body in bytes; a larger body is
	// an error, never read whole. Zero is DefaultMaxReply.
	MaxReply int64

	// Flight, when set, shares replies with the other proposers holding
	// it (premise batch: one per pull request).
	Flight *Flight

	apiKey     string
	client     chatAPI
	clientOnce sync.Once // chunks run concurrently; the client is built once

	mu       sync.Mutex
	wire     wireParams // what the endpoint has not refused so far (refusals.go)
	learned  []string   // the changes refusals forced, for the memory file
	wireOnce sync.Once  // the memory file is read once
	answered bool       // some request got an HTTP answer (model check)
	usage    Usage
}

// DefaultMaxReply is the reply size cap when OpenAI.MaxReply is zero: far
// above any Chat Completions answer within an output-token limit, far below
// what would exhaust memory (issue 14, part 9).
const DefaultMaxReply = 8 << 20

// response formats, richest first; the endpoint's refusal of one moves
// every later request to the next (issue 3).
var formats = []string{"json_schema", "json_object", "text"}

// EndpointError is a failure to get an answer from the endpoint at all:
// unreachable, 5xx after the last attempt, a timeout, a truncated body, a
// 4xx, or a reply that is not JSON after the repair round. Its message is
// one line naming the endpoint.
type EndpointError struct {
	Endpoint string
	Err      error
}

func (e *EndpointError) Error() string { return fmt.Sprintf("endpoint %s: %v", e.Endpoint, e.Err) }

func (e *EndpointError) Unwrap() error { return e.Err }

// NewOpenAI returns the model-backed proposer. apiKey may be empty (a local
// endpoint needs none); it is kept only in the Authorization header.
func NewOpenAI(cfg Config, apiKey string) (*OpenAI, error) {
	p, err := prompts.Get("assumptions")
	if err != nil {
		return nil, err
	}
	o := &OpenAI{Config: cfg, Prompt: p, apiKey: apiKey}
	return o, nil
}

// Name is the register's model.
func (o *OpenAI) Name() string { return o.Config.Model }

func (o *OpenAI) api() chatAPI {
	o.clientOnce.Do(func() {
		if o.client != nil {
			return
		}
		hc := o.HTTP
		if hc == nil {
			hc = &http.Client{Timeout: o.Config.Timeout}
		}
		oc := openai.DefaultConfig(o.apiKey)
		oc.BaseURL = strings.TrimRight(o.Config.Endpoint, "/")
		oc.HTTPClient = &retrier{o: o, hc: hc}
		o.client = openai.NewClientWithConfig(oc)
	})
	return o.client
}

// Propose splits the diff's changed symbols into chunks under the token
// budget, asks the model about each chunk (concurrently, up to the limit),
// filters every reply against ix, gives dropped rows one repair round, and
// returns what survives.
func (o *OpenAI) Propose(ctx context.Context, res *diffparse.Result, ix *validate.Index) (*Result, error) {
	chunks := o.chunks(res)
	o.usage = Usage{Chunks: len(chunks)}
	for _, ch := range chunks {
		for _, s := range ch {
			if s.Truncated {
				o.usage.Truncated = append(o.usage.Truncated, s.Name)
			}
		}
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	results := make([]chunkResult, len(chunks))
	sem := make(chan struct{}, max(1, o.Config.Concurrency))
	var wg sync.WaitGroup
	for i := range chunks {
		wg.Add(1)
		go func() {
			defer wg.Done()
			select {
			case sem <- struct{}{}:
			case <-ctx.Done():
				results[i].err = ctx.Err()
				return
			}
			defer func() { <-sem }()
			results[i] = o.askChunk(ctx, chunks[i], ix)
			if results[i].err != nil {
				cancel()
			}
		}()
	}
	wg.Wait()
	out := &Result{}
	var cands []validate.Candidate
	var firstErr error
	for _, r := range results {
		if r.err != nil && firstErr == nil && !errors.Is(r.err, context.Canceled) {
			firstErr = r.err
		}
		cands = append(cands, r.kept...)
		out.Dropped = append(out.Dropped, r.dropped...)
		out.Findings = append(out.Findings, r.findings...)
	}
	if firstErr == nil {
		for _, r := range results {
			if r.err != nil {
				firstErr = r.err
				break
			}
		}
	}
	if firstErr != nil {
		return nil, firstErr
	}
	// One more pass over every chunk's survivors drops duplicates across
	// chunks and fills file and line.
	final := ix.Filter(cands)
	out.Kept = final.Kept
	out.Dropped = append(out.Dropped, final.Dropped...)
	o.mu.Lock()
	out.Usage = o.usage
	o.mu.Unlock()
	sort.Strings(out.Usage.Truncated)
	return out, nil
}

type chunkResult struct {
	kept     []validate.Candidate
	dropped  []validate.Dropped
	findings []Finding
	err      error
}

// askChunk asks about one chunk: the request, the filter, the repair round.
// A reply cut short at the length limit is never parsed as if whole: the
// chunk is split and asked again, and a single symbol that still does not
// fit fails with its reason as a finding.
func (o *OpenAI) askChunk(ctx context.Context, syms []prompts.Symbol, ix *validate.Index) chunkResult {
	msgs, err := o.Prompt.Render(prompts.AssumptionsData{Symbols: syms})
	if err != nil {
		return chunkResult{err: err}
	}
	conv := []openai.ChatCompletionMessage{
		{Role: openai.ChatMessageRoleSystem, Content: msgs.System},
		{Role: openai.ChatMessageRoleUser, Content: msgs.User},
	}
	reply, err := o.chat(ctx, conv)
	if err != nil {
		var cut *cutShortError
		if errors.As(err, &cut) {
			if len(syms) > 1 {
				a := o.askChunk(ctx, syms[:len(syms)/2], ix)
				b := o.askChunk(ctx, syms[len(syms)/2:], ix)
				return chunkResult{
					kept: append(a.kept, b.kept...), dropped: append(a.dropped, b.dropped...),
					findings: append(a.findings, b.findings...), err: errors.Join(a.err, b.err),
				}
			}
			return chunkResult{findings: []Finding{{Rule: "model-reply-cut-short", Message: fmt.Sprintf("the reply about %s was cut short at the output limit (%d tokens); no rows were taken from it", syms[0].Name, o.Config.MaxOutputTokens)}}}
		}
		var ref *refusalError
		if errors.As(err, &ref) {
			return chunkResult{findings: []Finding{{Rule: "model-refused", Message: o.scrub(fmt.Sprintf("model %s refused to answer about %s: %s", o.Config.Model, symbolNames(syms), ref.text))}}}
		}
		return chunkResult{err: err}
	}
	cands, perr := parseItems(reply)
	if perr != nil {
		// One repair attempt for a reply that is not JSON.
		conv = append(conv,
			openai.ChatCompletionMessage{Role: openai.ChatMessageRoleAssistant, Content: reply},
			openai.ChatCompletionMessage{Role: openai.ChatMessageRoleUser, Content: fmt.Sprintf("Your reply could not be read as JSON (%v). Answer again with only the JSON object {\"items\": [...]}.", perr)})
		if reply, err = o.chat(ctx, conv); err != nil {
			return chunkResult{err: err}
		}
		if cands, perr = parseItems(reply); perr != nil {
			return chunkResult{err: &EndpointError{Endpoint: o.endpointName(), Err: errors.New(o.scrub(fmt.Sprintf("model %s: the reply about %s is not JSON after one repair attempt: %v", o.Config.Model, symbolNames(syms), perr)))}}
		}
	}
	src := "model:" + o.Config.Model
	for i := range cands {
		cands[i].Source = src
	}
	// The filter checks against the whole diff: a symbol from another chunk
	// is still a real changed symbol.
	first := ix.Filter(cands)
	out := chunkResult{kept: itemsToCands(first.Kept), dropped: first.Dropped}
	var fixable []validate.Dropped
	for _, d := range first.Dropped {
		if d.Reason == validate.ReasonUnknownSymbol || d.Reason == validate.ReasonEvidenceNotInDiff || d.Reason == validate.ReasonMalformed {
			fixable = append(fixable, d)
		}
	}
	if o.Config.NoRepair || len(fixable) == 0 {
		return out
	}
	var rd prompts.RepairData
	for _, s := range syms {
		rd.Symbols = append(rd.Symbols, s.Name)
	}
	for _, d := range fixable {
		rd.Dropped = append(rd.Dropped, prompts.DroppedRow{Symbol: d.Symbol, Precondition: d.Precondition, Evidence: d.Evidence, Detail: d.Detail})
	}
	text, err := o.Prompt.Part("repair", rd)
	if err != nil {
		return chunkResult{err: err}
	}
	conv = append(conv,
		openai.ChatCompletionMessage{Role: openai.ChatMessageRoleAssistant, Content: reply},
		openai.ChatCompletionMessage{Role: openai.ChatMessageRoleUser, Content: text})
	o.mu.Lock()
	o.usage.RepairRounds++
	o.mu.Unlock()
	reply, err = o.chat(ctx, conv)
	if err != nil {
		var cut *cutShortError
		var ref *refusalError
		if errors.As(err, &cut) || errors.As(err, &ref) {
			return out // the first round stands
		}
		return chunkResult{err: err}
	}
	again, perr := parseItems(reply)
	if perr != nil {
		return out // a repair reply that is not JSON repairs nothing
	}
	for i := range again {
		again[i].Source = src
	}
	second := ix.Filter(again)
	o.mu.Lock()
	o.usage.Repaired += len(second.Kept)
	o.mu.Unlock()
	out.kept = append(out.kept, itemsToCands(second.Kept)...)
	out.dropped = append(out.dropped, second.Dropped...)
	return out
}

func itemsToCands(items []validate.Item) []validate.Candidate {
	out := make([]validate.Candidate, 0, len(items))
	for _, it := range items {
		out = append(out, validate.Candidate{Symbol: it.Symbol, Precondition: it.Precondition, Evidence: it.Evidence, Source: it.Source})
	}
	return out
}

func symbolNames(syms []prompts.Symbol) string {
	var n []string
	for _, s := range syms {
		n = append(n, s.Name)
	}
	return strings.Join(n, ", ")
}

// cutShortError is a reply that stopped at the output limit.
type cutShortError struct{}

func (*cutShortError) Error() string { return "the reply was cut short at the output limit" }

// refusalError is a model declining to answer.
type refusalError struct{ text string }

func (e *refusalError) Error() string { return "the model refused: " + e.text }

// itemsSchema is the JSON schema of the reply (DESIGN.md, "The model wire
// format").
var itemsSchema = json.RawMessage(`{"type":"object","additionalProperties":false,"required":["items"],"properties":{"items":{"type":"array","items":{"type":"object","additionalProperties":false,"required":["symbol","precondition","evidence"],"properties":{"symbol":{"type":"string"},"precondition":{"type":"string"},"evidence":{"type":"string"}}}}}}`)

type rawSchema json.RawMessage

func (r rawSchema) MarshalJSON() ([]byte, error) { return r, nil }

// request builds the Chat Completions request for conv with the
// parameters w leaves on the wire.
func (o *OpenAI) request(conv []openai.ChatCompletionMessage, w wireParams) openai.ChatCompletionRequest {
	req := openai.ChatCompletionRequest{Model: o.Config.Model, Messages: conv}
	if !w.NoTemperature {
		// go-openai drops a zero temperature (omitempty) and the server
		// then samples at its default of 1.0 (DESIGN.md): send the smallest
		// float32 there is, which every server reads as 0.
		req.Temperature = math.SmallestNonzeroFloat32
	}
	if !w.NoSeed {
		seed := o.Config.Seed
		req.Seed = &seed
	}
	switch w.Limit {
	case limitMaxTokens:
		req.MaxTokens = o.Config.MaxOutputTokens
	case limitMaxCompletionTokens:
		req.MaxCompletionTokens = o.Config.MaxOutputTokens
	}
	switch formats[w.Format] {
	case "json_schema":
		req.ResponseFormat = &openai.ChatCompletionResponseFormat{
			Type: openai.ChatCompletionResponseFormatTypeJSONSchema,
			JSONSchema: &openai.ChatCompletionResponseFormatJSONSchema{
				Name: "assumptions", Schema: rawSchema(itemsSchema), Strict: true,
			},
		}
	case "json_object":
		req.ResponseFormat = &openai.ChatCompletionResponseFormat{Type: openai.ChatCompletionResponseFormatTypeJSONObject}
	}
	return req
}

// chat sends conv and returns the reply's text, from the cache when it has
// it. A refusal of a parameter (refusals.go) takes it away and asks again.
func (o *OpenAI) chat(ctx context.Context, conv []openai.ChatCompletionMessage) (string, error) {
	return o.chatAt(ctx, conv, 0)
}

// chatAt is chat with the response formats before minFormat left out: a
// reply the assumptions schema does not describe asks for a JSON object.
func (o *OpenAI) chatAt(ctx context.Context, conv []openai.ChatCompletionMessage, minFormat int) (string, error) {
	o.loadWire()
	for tries := 0; ; tries++ {
		o.mu.Lock()
		w := o.wire
		o.mu.Unlock()
		w.Format = max(w.Format, minFormat)
		// A reply cached in a plainer format means an earlier run was
		// refused the richer ones: use it rather than be refused again.
		for g := w.Format; g < len(formats); g++ {
			wg := w
			wg.Format = g
			b, err := json.Marshal(o.request(conv, wg))
			if err != nil {
				return "", err
			}
			if resp, ok := o.cacheGet(o.cacheKey(b)); ok {
				o.mu.Lock()
				o.usage.CacheHits++
				o.mu.Unlock()
				return replyText(resp)
			}
		}
		resp, key, hit, err := o.sendShared(ctx, conv, w)
		if hit {
			o.mu.Lock()
			o.usage.CacheHits++
			o.mu.Unlock()
			return replyText(resp)
		}
		if err != nil {
			// Each refusal takes one parameter away: there are only so
			// many to take.
			if tries < 2*len(tunable) && o.adapt(w, err) {
				continue
			}
			return "", o.endpointError(err)
		}
		text, err := replyText(resp)
		if errors.Is(err, errNoChoices) {
			return "", &EndpointError{Endpoint: o.endpointName(), Err: fmt.Errorf("model %s: %w", o.Config.Model, err)}
		}
		if err != nil {
			return "", err
		}
		if o.Flight == nil {
			o.cachePut(key, resp)
		}
		return text, nil
	}
}

// sendShared is send under the Flight's lock of the request's cache key:
// a proposer that finds the reply there, got by another while it waited,
// reports a hit and sends nothing. Without a Flight it is send.
func (o *OpenAI) sendShared(ctx context.Context, conv []openai.ChatCompletionMessage, w wireParams) (openai.ChatCompletionResponse, string, bool, error) {
	if o.Flight == nil {
		resp, key, err := o.send(ctx, conv, w)
		return resp, key, false, err
	}
	b, err := json.Marshal(o.request(conv, w))
	if err != nil {
		return openai.ChatCompletionResponse{}, "", false, err
	}
	release := o.Flight.hold(o.cacheKey(b))
	defer release()
	if resp, ok := o.cacheGet(o.cacheKey(b)); ok {
		return resp, o.cacheKey(b), true, nil
	}
	resp, key, err := o.send(ctx, conv, w)
	if err == nil {
		if _, terr := replyText(resp); terr == nil {
			o.cachePut(key, resp) // before the release: the next holder finds it
		}
	}
	return resp, key, false, err
}

// send makes one request for conv with w's parameters (retries of 429 and
// 5xx are the retrier's) and returns the reply and its cache key.
func (o *OpenAI) send(ctx context.Context, conv []openai.ChatCompletionMessage, w wireParams) (openai.ChatCompletionResponse, string, error) {
	req := o.request(conv, w)
	body, err := json.Marshal(req)
	if err != nil {
		return openai.ChatCompletionResponse{}, "", err
	}
	resp, err := o.api().CreateChatCompletion(ctx, req)
	if err != nil {
		return resp, "", err
	}
	o.mu.Lock()
	o.usage.PromptTokens += resp.Usage.PromptTokens
	o.usage.CompletionTokens += resp.Usage.CompletionTokens
	o.mu.Unlock()
	return resp, o.cacheKey(body), nil
}

// errNoChoices is a reply with nothing in it: the endpoint's fault.
var errNoChoices = errors.New("the reply has no choices")

// replyText returns the reply's content, or why it has none usable.
func replyText(resp openai.ChatCompletionResponse) (string, error) {
	if len(resp.Choices) == 0 {
		return "", errNoChoices
	}
	c := resp.Choices[0]
	if c.Message.Refusal != "" {
		return "", &refusalError{text: c.Message.Refusal}
	}
	switch c.FinishReason {
	case openai.FinishReasonLength:
		return "", &cutShortError{}
	case openai.FinishReasonContentFilter:
		return "", &refusalError{text: "stopped by the endpoint's content filter"}
	}
	return c.Message.Content, nil
}

// endpointError turns a client error into one line naming the endpoint and
// the failure, never the key.
func (o *OpenAI) endpointError(err error) error {
	if errors.Is(err, context.Canceled) {
		return err
	}
	var ae *openai.APIError
	var re *openai.RequestError
	var pr *paramRefusal
	var why string
	// Scrubbed before it is cut to length: a cut could leave half a token
	// that no longer matches.
	switch {
	case errors.As(err, &pr):
		why = oneLine(o.scrub(pr.Error()), 300) // already scrubbed; cheap to be sure
	case errors.As(err, &ae):
		why = fmt.Sprintf("HTTP %d: %s", ae.HTTPStatusCode, oneLine(o.scrub(ae.Message), 200))
	case errors.As(err, &re):
		why = fmt.Sprintf("HTTP %d: %s", re.HTTPStatusCode, oneLine(o.scrub(string(re.Body)), 200))
	default:
		why = oneLine(o.scrub(err.Error()), 300)
	}
	return &EndpointError{Endpoint: o.endpointName(), Err: errors.New(why)}
}

// endpointName is the endpoint as messages show it: without a user and
// password in the URL.
func (o *OpenAI) endpointName() string {
	return redactURLs.ReplaceAllString(o.Config.Endpoint, "${1}[redacted]@")
}

// Patterns of secrets an endpoint may echo into an error body (a 401 that
// quotes the Authorization header) or a proxy into a transport error.
var (
	redactAuth   = regexp.MustCompile(`(?i)\b(bearer|basic|token)(\s+|%20|\+)[A-Za-z0-9._~+/=*-]{4,}`)
	redactSK     = regexp.MustCompile(`\b(sk|rk|pk)-[A-Za-z0-9_*-]{6,}`)
	redactURLs   = regexp.MustCompile(`(://)[^/\s@]+@`)
	redactFields = regexp.MustCompile(`(?i)\b((?:x-)?api[_-]?key|authorization|access[_-]?token|secret|password)("?\s*[:=]\s*"?)((?:bearer|basic|token)\s+)?[^\s"'&,;}]+`)
)

// scrub removes secrets from text before it is printed, logged or wrapped
// into an error (issue 14, part 9): the key's own value wherever it appears,
// and anything shaped like a bearer token, an sk- key, a password in a URL
// or an api_key=... field, whoever's it is.
func (o *OpenAI) scrub(s string) string {
	if len(o.apiKey) >= 6 {
		s = strings.ReplaceAll(s, o.apiKey, "[redacted]")
	}
	s = redactAuth.ReplaceAllString(s, "${1} [redacted]")
	s = redactSK.ReplaceAllString(s, "${1}-[redacted]")
	s = redactURLs.ReplaceAllString(s, "${1}[redacted]@")
	s = redactFields.ReplaceAllString(s, "${1}${2}${3}[redacted]")
	return s
}

func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > n {
		s = s[:n] + "..."
	}
	return s
}

// retrier is the HTTP client under go-openai: it retries 429 and 5xx
// answers, transport errors, timeouts and truncated bodies with exponential
// backoff and jitter, honouring Retry-After, and reads each body whole so
// that a truncated one is caught here. 400, 401, 403 and 404 are returned at
// once: asking again would get the same answer. So is an answer, 5xx
// included, that refuses one of the request's parameters (refusalOf): chat
// asks again without it.
type retrier struct {
	o  *OpenAI
	hc *http.Client
}

func (r *retrier) Do(req *http.Request) (*http.Response, error) {
	var body []byte
	if req.Body != nil {
		b, err := io.ReadAll(req.Body)
		req.Body.Close()
		if err != nil {
			return nil, err
		}
		body = b
	}
	attempts := max(1, r.o.Config.MaxAttempts)
	var lastErr error
	for attempt := 1; ; attempt++ {
		req.Body = io.NopCloser(bytes.NewReader(body))
		req.ContentLength = int64(len(body))
		r.o.mu.Lock()
		r.o.usage.Requests++
		r.o.mu.Unlock()
		resp, err := r.hc.Do(req)
		var wait time.Duration
		if err == nil {
			r.o.mu.Lock()
			r.o.answered = true
			r.o.mu.Unlock()
			limit := r.o.MaxReply
			if limit <= 0 {
				limit = DefaultMaxReply
			}
			if resp.ContentLength > limit {
				resp.Body.Close()
				return nil, fmt.Errorf("HTTP %d: the reply is %d bytes, over the cap of %d; not read", resp.StatusCode, resp.ContentLength, limit)
			}
			data, rerr := io.ReadAll(io.LimitReader(resp.Body, limit+1))
			resp.Body.Close()
			switch {
			case int64(len(data)) > limit:
				// Asking again would get the same flood: not retried.
				return nil, fmt.Errorf("HTTP %d: the reply is over the cap of %d bytes; not read further", resp.StatusCode, limit)
			case rerr != nil:
				err = fmt.Errorf("reply body cut off after %d bytes: %w", len(data), rerr)
			case resp.StatusCode >= 400:
				// A refused parameter is answered the same way every time,
				// 500s included (llama.cpp): not retried, handed to chat.
				if ref := refusalOf(resp.StatusCode, data, body, r.o.scrub); ref != nil {
					return nil, ref
				}
				if resp.StatusCode != http.StatusTooManyRequests && resp.StatusCode < 500 {
					resp.Body = io.NopCloser(bytes.NewReader(data))
					resp.ContentLength = int64(len(data))
					return resp, nil
				}
				err = fmt.Errorf("HTTP %d: %s", resp.StatusCode, oneLine(r.o.scrub(string(data)), 200))
				var asked time.Duration
				wait, asked = retryAfter(resp.Header.Get("Retry-After"))
				if asked > maxRetryAfter {
					// An endpoint asking for an hour will not answer in
					// two minutes: waiting would only stall the job.
					return nil, fmt.Errorf("%w; it asks to be retried after %v, longer than premise waits (%v): not retried", err, asked.Round(time.Second), maxRetryAfter)
				}
			case !bytes.HasPrefix(bytes.TrimSpace(data), []byte("{")):
				// A proxy's HTML page, a stream nobody asked for: the
				// decoder's "invalid character '<'" would name neither.
				return nil, fmt.Errorf("HTTP %d: the reply is not a JSON object (Content-Type %q): %s", resp.StatusCode, resp.Header.Get("Content-Type"), oneLine(r.o.scrub(string(data)), 120))
			default:
				resp.Body = io.NopCloser(bytes.NewReader(data))
				resp.ContentLength = int64(len(data))
				return resp, nil
			}
		} else if ctxErr := req.Context().Err(); ctxErr != nil {
			return nil, ctxErr
		} else {
			err = errors.New(r.o.scrub(describeTransport(err, r.hc.Timeout).Error()))
		}
		lastErr = err
		if attempt >= attempts {
			return nil, fmt.Errorf("%w (after %d attempts)", lastErr, attempt)
		}
		if wait == 0 {
			base := r.o.Backoff
			if base == 0 {
				base = time.Second
			}
			d := base << (attempt - 1)
			wait = d/2 + rand.N(d/2+1) // jitter: half fixed, half random
		}
		if r.o.Log != nil {
			fmt.Fprintf(r.o.Log, "premise: %s: attempt %d failed (%s); retrying in %v\n", r.o.endpointName(), attempt, r.o.scrub(lastErr.Error()), wait.Round(time.Millisecond))
		}
		t := time.NewTimer(wait)
		select {
		case <-req.Context().Done():
			t.Stop()
			return nil, req.Context().Err()
		case <-t.C:
		}
	}
}

// maxRetryAfter is the longest Retry-After premise waits out: one header
// cannot stall a CI job.
const maxRetryAfter = 2 * time.Minute

// retryAfter reads a Retry-After header: seconds, or an HTTP date. wait is
// what to wait, capped at maxRetryAfter; asked what the header asked.
func retryAfter(h string) (wait, asked time.Duration) {
	if h == "" {
		return 0, 0
	}
	var d time.Duration
	if n, err := strconv.Atoi(strings.TrimSpace(h)); err == nil && n >= 0 {
		d = time.Duration(n) * time.Second
	} else if t, err := http.ParseTime(h); err == nil {
		d = time.Until(t)
	}
	if d < 0 {
		d = 0
	}
	asked = d
	d = min(d, maxRetryAfter)
	if d == 0 {
		d = time.Millisecond
	}
	return d, asked
}

func describeTransport(err error, timeout time.Duration) error {
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return fmt.Errorf("no reply within the timeout of %v", timeout)
	}
	var oe *net.OpError
	if errors.As(err, &oe) {
		return fmt.Errorf("unreachable: %v", oe.Err)
	}
	return err
}

// cacheKey is sha256 of the endpoint, the model, the prompt's sha and the
// request body. The key never enters the request body, so it never enters
// the cache either.
func (o *OpenAI) cacheKey(body []byte) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\n%s\n%s\n", strings.TrimRight(o.Config.Endpoint, "/"), o.Config.Model, o.Prompt.SHA256)
	h.Write(body)
	return hex.EncodeToString(h.Sum(nil))
}

func (o *OpenAI) cacheDir() string { return o.Config.CacheRoot() }

func (o *OpenAI) cacheGet(key string) (openai.ChatCompletionResponse, bool) {
	var resp openai.ChatCompletionResponse
	if o.Flight != nil {
		if r, ok := o.Flight.get(key); ok {
			return r, true
		}
	}
	dir := o.cacheDir()
	if o.Config.NoCache || dir == "" {
		return resp, false
	}
	data, err := os.ReadFile(filepath.Join(dir, key+".json"))
	if err != nil || json.Unmarshal(data, &resp) != nil {
		return resp, false
	}
	return resp, true
}

// cachePut stores a usable reply. A cache that cannot be written costs a
// request next time; it does not fail the run.
func (o *OpenAI) cachePut(key string, resp openai.ChatCompletionResponse) {
	if o.Flight != nil {
		o.Flight.put(key, resp)
	}
	dir := o.cacheDir()
	if o.Config.NoCache || dir == "" {
		return
	}
	data, err := json.Marshal(resp)
	if err != nil {
		return
	}
	_ = atomicfile.WriteFile(filepath.Join(dir, key+".json"), data, 0o600)
}
