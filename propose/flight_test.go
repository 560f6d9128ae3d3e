package propose

import (
	"context"
	"sync"
	"testing"
	"time"
)

// TestFlightAsksOnce: proposers sharing a Flight, at once and with the disk
// cache off, send one request per distinct question; the others are
// answered by its reply and count it as a cache hit. PerSymbol makes the
// question one symbol's.
func TestFlightAsksOnce(t *testing.T) {
	f := newFake(t, func(n int, r wireRequest) reply {
		time.Sleep(20 * time.Millisecond) // long enough for the others to wait on it
		return chat(goodItems, "", promptChars(r))
	})
	res := intervals(t)
	flight := NewFlight()
	const n = 6
	usage := make([]Usage, n)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		o, _ := newTestProposer(t, f.url())
		o.Config.NoCache, o.Config.NoRepair, o.Config.PerSymbol = true, true, true
		o.Flight = flight
		wg.Add(1)
		go func() {
			defer wg.Done()
			out, err := Draft(context.Background(), o, res)
			if err != nil {
				t.Error(err)
				return
			}
			usage[i] = out.Usage
		}()
	}
	wg.Wait()
	symbols := len(promptSymbols(res))
	if got := len(f.requests()); got != symbols {
		t.Errorf("%d proposers sent %d requests; want one per changed symbol (%d)", n, got, symbols)
	}
	hits := 0
	for _, u := range usage {
		hits += u.CacheHits
		if u.Chunks != symbols {
			t.Errorf("PerSymbol: %d chunks for %d symbols", u.Chunks, symbols)
		}
	}
	if hits != (n-1)*symbols {
		t.Errorf("%d cache hits; want %d", hits, (n-1)*symbols)
	}
}
