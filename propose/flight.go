package propose

import (
	"sync"

	openai "github.com/sashabaranov/go-openai"
)

// Flight shares model replies among the proposers of one process: premise
// batch runs one proposer per pull request, several at once, and a
// function changed the same way in two of them must be asked about once.
// A request another proposer is sending is waited for, not sent again, and
// a reply one proposer got answers the others, with the disk cache off too.
// The zero value is not usable; call NewFlight.
type Flight struct {
	mu      sync.Mutex
	held    map[string]*sync.Mutex
	replies map[string]openai.ChatCompletionResponse
}

// NewFlight returns an empty Flight.
func NewFlight() *Flight {
	return &Flight{held: map[string]*sync.Mutex{}, replies: map[string]openai.ChatCompletionResponse{}}
}

// hold takes the lock of one cache key and returns its release: while one
// proposer sends a request, another with the same key waits, then finds
// the reply.
func (f *Flight) hold(key string) func() {
	f.mu.Lock()
	m, ok := f.held[key]
	if !ok {
		m = &sync.Mutex{}
		f.held[key] = m
	}
	f.mu.Unlock()
	m.Lock()
	return m.Unlock
}

func (f *Flight) get(key string) (openai.ChatCompletionResponse, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	r, ok := f.replies[key]
	return r, ok
}

func (f *Flight) put(key string, resp openai.ChatCompletionResponse) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.replies[key] = resp
}
