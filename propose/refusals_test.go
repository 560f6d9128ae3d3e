package propose

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Error bodies as endpoints send them when they refuse a parameter (issue
// 15, part 5). The OpenAI ones are verbatim; the others follow each
// server's error shape.
const (
	openaiMaxTokens = `{"error":{"message":"Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.","type":"invalid_request_error","param":"max_tokens","code":"unsupported_parameter"}}`
	openaiTemp      = `{"error":{"message":"Unsupported value: 'temperature' does not support 0 with this model. Only the default (1) value is supported.","type":"invalid_request_error","param":"temperature","code":"unsupported_value"}}`
	// vLLM's request validation (pydantic) answers 400 naming the field
	// in the message, param null.
	vllmFormat = `{"error":{"message":"1 validation error for ChatCompletionRequest\nresponse_format.json_schema\n  Extra inputs are not permitted [type=extra_forbidden]","type":"BadRequestError","param":null,"code":400}}`
	// vLLM before 0.6 put the error at the top level.
	vllmOldSeed = `{"object":"error","message":"seed is not supported by this server","type":"BadRequestError","param":null,"code":400}`
	// llama.cpp's server throws a runtime_error for a format it does not
	// know, which it answers with 500.
	llamacppFormat = `{"error":{"code":500,"message":"response_format type must be one of \"text\" or \"json_object\", but got: json_schema","type":"server_error"}}`
	// Ollama's OpenAI layer: the OpenAI shape, param and code null.
	ollamaSeed = `{"error":{"message":"invalid option provided: seed","type":"invalid_request_error","param":null,"code":null}}`
	// LM Studio: the error is a bare string.
	lmstudioFormat = `{"error":"'response_format.type' must be 'json_schema' or 'text'"}`
	// OpenRouter passes the provider's own body in metadata.raw ...
	openrouterRawSeed = `{"error":{"message":"Provider returned error","code":400,"metadata":{"raw":"{\"error\":{\"message\":\"Unrecognized request argument supplied: seed\",\"type\":\"invalid_request_error\",\"param\":null,\"code\":null}}","provider_name":"Azure"}}}`
	// ... or, routing with require_parameters, answers 404.
	openrouterNoEndpoint = `{"error":{"message":"No endpoints found that support the provided 'response_format' value. To learn more about provider routing, visit: https://openrouter.ai/docs/provider-routing","code":404}}`
	// FastAPI servers (Mistral's API) answer 422 with the field in loc.
	fastapiSeed = `{"object":"error","message":{"detail":[{"type":"extra_forbidden","loc":["body","seed"],"msg":"Extra inputs are not permitted","input":7}]},"type":"invalid_request_error","param":null,"code":null}`
)

// refuses is a fake endpoint's script: it answers status and body while
// the request carries param (or, for response_format, that format), and a
// good reply otherwise.
func refuses(param, value string, status int, body string) func(int, wireRequest) reply {
	return func(n int, r wireRequest) reply {
		v, ok := r.Raw[param]
		if ok && value != "" {
			rf, _ := v.(map[string]any)
			ok = rf["type"] == value
		}
		if ok {
			return reply{status: status, body: body}
		}
		return chat(goodItems, "", promptChars(r))
	}
}

// TestParamRefusals: for each refusal, premise asks again without the
// refused parameter (or with max_completion_tokens), keeps the others on
// the wire, and the run succeeds.
func TestParamRefusals(t *testing.T) {
	tests := []struct {
		name   string
		script func(int, wireRequest) reply
		model  string
		// the second request's parameters: present, absent, and values
		absent  []string
		present []string
		want    map[string]any
		reason  string
	}{
		{name: "openai max_tokens", script: refuses("max_tokens", "", 400, openaiMaxTokens),
			absent: []string{"max_tokens"}, present: []string{"temperature", "seed", "response_format"},
			want:   map[string]any{"max_completion_tokens": float64(2048)},
			reason: "the error names max_completion_tokens as the field to use"},
		{name: "openai temperature", script: refuses("temperature", "", 400, openaiTemp),
			absent: []string{"temperature"}, present: []string{"seed", "max_tokens", "response_format"},
			reason: "only the default is supported: send none"},
		{name: "vllm response_format", script: refuses("response_format", "json_schema", 400, vllmFormat),
			present: []string{"temperature", "seed", "max_tokens"},
			want:    map[string]any{"response_format": map[string]any{"type": "json_object"}}},
		{name: "vllm old top-level error, seed", script: refuses("seed", "", 400, vllmOldSeed),
			absent: []string{"seed"}, present: []string{"temperature", "max_tokens", "response_format"}},
		{name: "llama.cpp 500 on json_schema", script: refuses("response_format", "json_schema", 500, llamacppFormat),
			want:   map[string]any{"response_format": map[string]any{"type": "json_object"}},
			reason: "a 500 that refuses a parameter is not retried as a 5xx"},
		{name: "ollama seed", script: refuses("seed", "", 400, ollamaSeed),
			absent: []string{"seed"}, present: []string{"temperature"}},
		{name: "lm studio bare string error", script: refuses("response_format", "json_schema", 400, lmstudioFormat),
			want: map[string]any{"response_format": map[string]any{"type": "json_object"}}},
		{name: "openrouter provider raw body, seed", script: refuses("seed", "", 400, openrouterRawSeed),
			absent: []string{"seed"}, present: []string{"temperature", "max_tokens"},
			reason: "the provider's words are inside metadata.raw"},
		{name: "openrouter 404 no endpoints", script: refuses("response_format", "json_schema", 404, openrouterNoEndpoint),
			want: map[string]any{"response_format": map[string]any{"type": "json_object"}}},
		{name: "fastapi 422 loc", script: refuses("seed", "", 422, fastapiSeed),
			absent: []string{"seed"}, present: []string{"temperature"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFake(t, tc.script)
			o, log := newTestProposer(t, f.url())
			res, err := propose(t, o, intervals(t))
			if err != nil {
				t.Fatalf("err = %v (%s)", err, tc.reason)
			}
			if len(res.Kept) != 1 {
				t.Errorf("kept %+v", res.Kept)
			}
			reqs := f.requests()
			if len(reqs) != 2 {
				t.Fatalf("%d requests, want 2: the refused one and one without the parameter (%s)", len(reqs), tc.reason)
			}
			second := reqs[1].Raw
			for _, p := range tc.absent {
				if _, ok := second[p]; ok {
					t.Errorf("the second request still sends %s = %v", p, second[p])
				}
			}
			for _, p := range tc.present {
				if _, ok := second[p]; !ok {
					t.Errorf("the second request dropped %s, which was not refused", p)
				}
			}
			for k, v := range tc.want {
				got := second[k]
				if m, ok := v.(map[string]any); ok {
					gm, _ := got.(map[string]any)
					got = map[string]any{"type": gm["type"]}
					v = m
				}
				if diff := cmp.Diff(v, got); diff != "" {
					t.Errorf("second request's %s (-want +got):\n%s", k, diff)
				}
			}
			if !strings.Contains(log.String(), "refused") {
				t.Errorf("the log does not say what was refused:\n%s", log)
			}
			assertNoKey(t, o.Config.CacheDir, log.String())
		})
	}
}

// TestClientSideRefusals: go-openai refuses max_tokens and a temperature
// for o1/o3/o4/gpt-5 models before sending anything; premise takes the
// same way out, so the one request on the wire is already right.
func TestClientSideRefusals(t *testing.T) {
	f := newFake(t, func(n int, r wireRequest) reply { return chat(goodItems, "", promptChars(r)) })
	o, _ := newTestProposer(t, f.url())
	o.Config.Model = "gpt-5-mini"
	if _, err := propose(t, o, intervals(t)); err != nil {
		t.Fatal(err)
	}
	reqs := f.requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests, want 1", len(reqs))
	}
	r := reqs[0].Raw
	if _, ok := r["max_tokens"]; ok {
		t.Errorf("max_tokens sent: %s", reqs[0].Body)
	}
	if _, ok := r["temperature"]; ok {
		t.Errorf("temperature sent: %s", reqs[0].Body)
	}
	if r["max_completion_tokens"] != float64(2048) || r["seed"] != float64(7) {
		t.Errorf("max_completion_tokens %v, seed %v: want 2048 and 7", r["max_completion_tokens"], r["seed"])
	}
}

// TestRefusalRemembered: the next run on the same endpoint and model does
// not pay the refusal again; another model at the same endpoint does.
func TestRefusalRemembered(t *testing.T) {
	var mu sync.Mutex
	refused := 0
	f := newFake(t, func(n int, r wireRequest) reply {
		if _, ok := r.Raw["temperature"]; ok && r.Raw["model"] == "test-model" {
			mu.Lock()
			refused++
			mu.Unlock()
			return reply{status: 400, body: openaiTemp}
		}
		if _, ok := r.Raw["max_tokens"]; ok && r.Raw["model"] == "test-model" {
			mu.Lock()
			refused++
			mu.Unlock()
			return reply{status: 400, body: openaiMaxTokens}
		}
		return chat(goodItems, "", promptChars(r))
	})
	o, log := newTestProposer(t, f.url())
	if _, err := propose(t, o, intervals(t)); err != nil {
		t.Fatal(err)
	}
	if refused != 2 || len(f.requests()) != 3 {
		t.Fatalf("first run: %d refusals in %d requests, want 2 in 3", refused, len(f.requests()))
	}
	mem, err := filepath.Glob(filepath.Join(o.Config.CacheDir, "endpoints", "*.json"))
	if err != nil || len(mem) != 1 {
		t.Fatalf("memory files %v, %v", mem, err)
	}
	data, _ := os.ReadFile(mem[0])
	for _, want := range []string{`"endpoint": "` + f.url() + `"`, `"model": "test-model"`, `"send_temperature": false`, `"output_limit": "max_completion_tokens"`, `"send_seed": true`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("memory file lacks %s:\n%s", want, data)
		}
	}
	// Drop the reply cache, keep the memory: the next run must ask, and
	// ask rightly the first time.
	replies, _ := filepath.Glob(filepath.Join(o.Config.CacheDir, "*.json"))
	for _, p := range replies {
		os.Remove(p)
	}
	sent := len(f.requests())
	o2, log2 := newTestProposer(t, f.url())
	o2.Config.CacheDir = o.Config.CacheDir
	if _, err := propose(t, o2, intervals(t)); err != nil {
		t.Fatal(err)
	}
	if got := len(f.requests()) - sent; got != 1 || refused != 2 {
		t.Errorf("second run sent %d requests (%d refusals in all), want 1 and no new refusal", got, refused)
	}
	if !strings.Contains(log2.String(), "remembered in") {
		t.Errorf("the second run does not say it used what was remembered:\n%s", log2)
	}
	// Another model at the same endpoint starts fresh.
	o3, _ := newTestProposer(t, f.url())
	o3.Config.CacheDir = o.Config.CacheDir
	o3.Config.Model = "other-model"
	sent = len(f.requests())
	if _, err := propose(t, o3, intervals(t)); err != nil {
		t.Fatal(err)
	}
	last := f.requests()[sent].Raw
	if _, ok := last["temperature"]; !ok {
		t.Errorf("another model inherited test-model's refusals: %v", last)
	}
	assertNoKey(t, o.Config.CacheDir, log.String()+log2.String())
}

// TestRefusalOfSomethingElse: a 400 naming a parameter premise did not
// send, or none, fails the run with one line naming the endpoint and the
// HTTP status, scrubbed of secrets, after one request.
func TestRefusalOfSomethingElse(t *testing.T) {
	tests := []struct{ name, body string }{
		{"messages too long", `{"error":{"message":"Invalid 'messages[1].content': string too long. Expected a string with maximum length 1048576. Authorization: Bearer ` + testKey + `","type":"invalid_request_error","param":"messages","code":"string_above_max_length"}}`},
		{"a parameter not sent", `{"error":{"message":"Unsupported parameter: 'top_p' is not supported with this model. key=` + testKey + `","type":"invalid_request_error","param":"top_p","code":"unsupported_parameter"}}`},
		{"unnamed", "Bad Request: api_key=" + testKey},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFake(t, func(int, wireRequest) reply { return reply{status: 400, body: tc.body} })
			o, log := newTestProposer(t, f.url())
			_, err := propose(t, o, intervals(t))
			var ee *EndpointError
			if !errors.As(err, &ee) || !strings.Contains(err.Error(), "HTTP 400") || !strings.Contains(err.Error(), f.url()) {
				t.Fatalf("err = %v, want an EndpointError naming %s and HTTP 400", err, f.url())
			}
			if strings.Contains(err.Error(), "\n") || strings.Contains(err.Error(), testKey) {
				t.Errorf("err is not one scrubbed line: %q", err)
			}
			if n := len(f.requests()); n != 1 {
				t.Errorf("%d requests, want 1", n)
			}
			assertNoKey(t, o.Config.CacheDir, log.String())
		})
	}
}

// TestRefusalsEverything: an endpoint that refuses every optional
// parameter in turn still gets asked, each refusal once, and the last
// request carries none of them.
func TestRefusalsEverything(t *testing.T) {
	f := newFake(t, func(n int, r wireRequest) reply {
		for _, p := range []string{"max_tokens", "max_completion_tokens", "temperature", "seed", "response_format"} {
			if _, ok := r.Raw[p]; ok {
				return reply{status: 400, body: fmt.Sprintf(`{"error":{"message":"Unsupported parameter: '%s'. Use 'max_completion_tokens' instead.","param":%q}}`, p, p)}
			}
		}
		return chat(goodItems, "", promptChars(r))
	})
	o, _ := newTestProposer(t, f.url())
	res, err := propose(t, o, intervals(t))
	if err != nil {
		t.Fatal(err)
	}
	reqs := f.requests()
	// max_tokens, max_completion_tokens, temperature, seed, json_schema,
	// json_object, then the answer.
	if len(reqs) != 7 {
		t.Errorf("%d requests, want 7", len(reqs))
	}
	last := reqs[len(reqs)-1].Raw
	for _, p := range []string{"max_tokens", "max_completion_tokens", "temperature", "seed", "response_format"} {
		if _, ok := last[p]; ok {
			t.Errorf("last request sends %s", p)
		}
	}
	if diff := cmp.Diff([]string{"json_schema -> json_object", "json_object -> text"}, res.Usage.Fallbacks); diff != "" {
		t.Errorf("fallbacks (-want +got):\n%s", diff)
	}
}

// TestRefusalConcurrentChunks: chunks in flight together all meet the
// refusal; each asks again with what the first one learned, and the run
// succeeds (run under -race).
func TestRefusalConcurrentChunks(t *testing.T) {
	base := map[string]string{}
	head := map[string]string{}
	for i := range 6 {
		p := fmt.Sprintf("m%d.py", i)
		base[p] = fmt.Sprintf("def f%d(x):\n    return x\n", i)
		head[p] = fmt.Sprintf("def f%d(x):\n    return x + %d\n", i, i)
	}
	res := loadRepo(t, repoWith(t, base, head))
	f := newFake(t, func(n int, r wireRequest) reply {
		if _, ok := r.Raw["seed"]; ok {
			return reply{status: 400, body: ollamaSeed}
		}
		return chat(`{"items": []}`, "", promptChars(r))
	})
	o, _ := newTestProposer(t, f.url())
	o.Config.TokenBudget = 500
	o.Config.Concurrency = 3
	r, err := propose(t, o, res)
	if err != nil {
		t.Fatal(err)
	}
	if r.Usage.Chunks < 2 {
		t.Fatalf("%d chunks, want several", r.Usage.Chunks)
	}
	n, refused := 0, 0
	for _, q := range f.requests() {
		n++
		if _, ok := q.Raw["seed"]; ok {
			refused++
		}
	}
	if n-refused != r.Usage.Chunks || refused > o.Config.Concurrency {
		t.Errorf("%d requests, %d refused, %d chunks: want one good request per chunk and at most one refusal per chunk in flight", n, refused, r.Usage.Chunks)
	}
}

func TestRefusalOf(t *testing.T) {
	sent := []byte(`{"model":"m","temperature":1e-45,"seed":7,"max_tokens":2048,"response_format":{"type":"json_schema"}}`)
	tests := []struct {
		name   string
		status int
		body   string
		want   []string // nil: not a refusal
		repl   string
		reason string
	}{
		{"openai max_tokens", 400, openaiMaxTokens, []string{"max_tokens"}, "max_completion_tokens", ""},
		{"openai temperature", 400, openaiTemp, []string{"temperature"}, "", ""},
		{"param with a path", 400, `{"error":{"message":"Invalid value: 'object'.","param":"response_format.type"}}`, []string{"response_format"}, "", ""},
		{"vllm", 400, vllmFormat, []string{"response_format"}, "", ""},
		{"llama.cpp 500", 500, llamacppFormat, []string{"response_format"}, "", ""},
		{"openrouter raw", 400, openrouterRawSeed, []string{"seed"}, "", ""},
		{"openrouter raw with a param field", 400, `{"error":{"message":"Provider returned error","code":400,"metadata":{"raw":"{\"error\":{\"message\":\"Unsupported value: 'temperature' does not support 0 with this model; seed and max_tokens are fine.\",\"param\":\"temperature\"}}"}}}`, []string{"temperature"}, "", "the provider's param field beats its prose"},
		{"fastapi loc", 422, fastapiSeed, []string{"seed"}, "", ""},
		{"429 is never a refusal", 429, openaiTemp, nil, "", "rate limits are retried"},
		{"401 is never a refusal", 401, `{"error":{"message":"invalid seed api key"}}`, nil, "", ""},
		{"a plain 500", 500, `{"error":{"message":"","type":"InternalServerError","param":null,"code":500}}`, nil, "", ""},
		{"names without refusing", 400, `{"error":{"message":"the seed was 7 and that is fine"}}`, nil, "", "a message must say no"},
		{"seeded is not seed", 400, `{"error":{"message":"unsupported: seeded sampling"}}`, nil, "", "whole words only"},
		{"max_completion_tokens alone is not max_tokens", 400, `{"error":{"message":"Unsupported parameter: 'max_completion_tokens'"}}`, nil, "", "it was not sent"},
		{"echoed body", 400, "unknown field \"seed\" in request", []string{"seed"}, "", "not JSON"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := refusalOf(tc.status, []byte(tc.body), sent, func(s string) string { return s })
			var got []string
			repl := ""
			if r != nil {
				got, repl = r.Params, r.Replacement
			}
			if diff := cmp.Diff(tc.want, got); diff != "" || repl != tc.repl {
				t.Errorf("params (-want +got):\n%s\nreplacement %q, want %q (%s)", diff, repl, tc.repl, tc.reason)
			}
		})
	}
}

func FuzzRefusalOf(f *testing.F) {
	for _, s := range []string{openaiMaxTokens, vllmFormat, openrouterRawSeed, fastapiSeed, lmstudioFormat, `"`, `{"error":[[[[]]]]}`} {
		f.Add(s)
	}
	sent := []byte(`{"temperature":1,"seed":7,"max_tokens":1,"response_format":{}}`)
	f.Fuzz(func(t *testing.T, s string) {
		refusalOf(400, []byte(s), sent, func(s string) string { return s }) // must not panic
	})
}
