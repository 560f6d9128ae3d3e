package validate

import (
	"context"
	"fmt"
	"strings"
)

// SourceHand is the source of an assumption a person wrote with premise
// assume rather than a proposer drafted from a diff.
const SourceHand = "hand"

// Assume adds one reviewed-by-hand assumption to the register at path
// (creating the register when there is none), under the register's lock
// and written atomically, as accept and reject write. It is accepted, since
// the person who wrote it reviewed it, and its source is SourceHand, so no
// later diff marks it stale. An assumption the register already holds
// (same symbol and precondition) is refused, naming it.
func Assume(ctx context.Context, path string, it Item) (Item, error) {
	it.Symbol, it.Precondition, it.Evidence = strings.TrimSpace(it.Symbol), strings.TrimSpace(it.Precondition), strings.TrimSpace(it.Evidence)
	switch {
	case it.Symbol == "":
		return it, fmt.Errorf("assume: the symbol is empty")
	case it.Precondition == "":
		return it, fmt.Errorf("assume: say what the code assumes of %s with --precondition TEXT", it.Symbol)
	case it.Evidence == "":
		return it, fmt.Errorf("assume: say what shows it with --evidence TEXT")
	}
	it.Status, it.Source, it.Stale = StatusAccepted, SourceHand, false
	err := UpdateRegister(ctx, path, func(now *Register) (*Register, error) {
		if now == nil {
			now = &Register{Version: FormatVersion, Items: []Item{}}
		}
		next := 1
		for _, old := range now.Items {
			if Key(old.Symbol, old.Precondition) == Key(it.Symbol, it.Precondition) {
				return nil, fmt.Errorf("%s: %s already says this (%s: %s)", path, old.ID, old.Symbol, old.Precondition)
			}
			if n, ok := aNumber(old.ID); ok && n >= next {
				next = n + 1
			}
		}
		it.ID = formatA(next)
		now.Items = append(now.Items, it)
		return now, nil
	})
	return it, err
}
