package propose

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/premise-dev/premise/internal/jsonvalue"
	"github.com/premise-dev/premise/prompts"
	openai "github.com/sashabaranov/go-openai"
)

// InputsRequest is one changed function the model chooses evidence inputs
// for (issue 13, part 1).
type InputsRequest struct {
	Symbol, Language string
	Params           []string // as written
	Assumptions      []string // the preconditions not rejected
	Source           string   // head side
	BaseSource       string   // base side, "" when absent
	Max              int
}

// InputCall is one call the model proposed: JSON values only.
type InputCall struct {
	Args   []any          `json:"args"`
	Kwargs map[string]any `json:"kwargs,omitempty"`
}

// maxInputSource bounds the source sent for one function, each side.
const maxInputSource = 12000

// Inputs asks the model for up to req.Max calls of one changed function.
// The calls are the model's guesses and nothing more: evidence runs each
// on both sides, and a call that does not run on the base decides nothing.
// A reply that is not the JSON object asked for, after one repair round,
// is an error naming the function; entries that are not calls are
// dropped and counted.
func (o *OpenAI) Inputs(ctx context.Context, req InputsRequest) ([]InputCall, int, error) {
	p, err := prompts.Get("inputs")
	if err != nil {
		return nil, 0, err
	}
	data := prompts.InputsData{Name: req.Symbol, Language: req.Language, Params: req.Params,
		Assumptions: req.Assumptions, Source: clip(req.Source), Max: req.Max}
	if req.BaseSource != req.Source {
		data.BaseSource = clip(req.BaseSource)
	}
	msgs, err := p.Render(data)
	if err != nil {
		return nil, 0, err
	}
	var calls []InputCall
	dropped := 0
	err = o.askList(ctx, msgs, "inputs", "the inputs for "+req.Symbol, func(reply string) (err error) {
		calls, dropped, err = parseInputs(reply, req.Max)
		return err
	})
	return calls, dropped, err
}

// askList sends a rendered prompt whose reply is a JSON object holding a
// list under key, and reads it with parse. The assumptions' schema does
// not describe these replies: a JSON object is asked for instead. A reply
// parse cannot read is sent back once with the reason; a second one is
// an error naming what was asked (what).
func (o *OpenAI) askList(ctx context.Context, msgs prompts.Messages, key, what string, parse func(reply string) error) error {
	conv := []openai.ChatCompletionMessage{
		{Role: openai.ChatMessageRoleSystem, Content: msgs.System},
		{Role: openai.ChatMessageRoleUser, Content: msgs.User},
	}
	reply, err := o.chatAt(ctx, conv, 1)
	if err != nil {
		return err
	}
	perr := parse(reply)
	if perr == nil {
		return nil
	}
	conv = append(conv,
		openai.ChatCompletionMessage{Role: openai.ChatMessageRoleAssistant, Content: reply},
		openai.ChatCompletionMessage{Role: openai.ChatMessageRoleUser, Content: fmt.Sprintf("Your reply could not be read (%v). Answer again with only the JSON object {%q: [...]}.", perr, key)})
	if reply, err = o.chatAt(ctx, conv, 1); err != nil {
		return err
	}
	if perr = parse(reply); perr != nil {
		return &EndpointError{Endpoint: o.endpointName(), Err: errors.New(o.scrub(fmt.Sprintf("model %s: %s are not JSON after one repair attempt: %v", o.Config.Model, what, perr)))}
	}
	return nil
}

// replyList finds the list under key in a reply: {"key": [...]}, the
// same in a fenced block, or a bare list.
func replyList(reply, key string) ([]json.RawMessage, error) {
	raw, err := replyJSON(reply)
	if err != nil {
		return nil, err
	}
	var list []json.RawMessage
	if raw[0] == '[' {
		if err := json.Unmarshal(raw, &list); err != nil {
			return nil, err
		}
		return list, nil
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil {
		return nil, err
	}
	v, ok := obj[key]
	if !ok {
		return nil, fmt.Errorf("the reply has no %q list", key)
	}
	if err := json.Unmarshal(v, &list); err != nil || list == nil {
		return nil, fmt.Errorf("the reply's %q is not a list", key)
	}
	return list, nil
}

// parseInputs reads {"inputs": [{"args": [...], "kwargs": {...}}]}, a
// fenced block or a bare list of such objects too; an entry without a list
// of args is dropped and counted, and at most max are kept.
func parseInputs(reply string, max int) ([]InputCall, int, error) {
	list, err := replyList(reply, "inputs")
	if err != nil {
		return nil, 0, err
	}
	var out []InputCall
	dropped := 0
	for _, e := range list {
		var c struct {
			Args   *[]any         `json:"args"`
			Kwargs map[string]any `json:"kwargs"`
		}
		d := json.NewDecoder(strings.NewReader(string(e)))
		d.UseNumber()
		// A key premise's row protocol gives a meaning ($expr, $new,
		// $func) would make a value code: the model gives values only.
		if err := d.Decode(&c); err != nil || c.Args == nil || len(out) >= max || jsonvalue.ProtocolKey(*c.Args) || jsonvalue.ProtocolKey(c.Kwargs) {
			dropped++
			continue
		}
		out = append(out, InputCall{Args: jsonvalue.Numbers(*c.Args).([]any), Kwargs: kwNumbers(c.Kwargs)})
	}
	return out, dropped, nil
}

func kwNumbers(m map[string]any) map[string]any {
	if len(m) == 0 {
		return nil
	}
	return jsonvalue.Numbers(m).(map[string]any)
}

func clip(s string) string {
	if len(s) <= maxInputSource {
		return s
	}
	return s[:maxInputSource] + "\n... (cut)"
}
