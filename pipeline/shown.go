package pipeline

import (
	"sort"
	"unicode/utf8"
)

// MaxShownPerSymbol is how many behaviour changes of one symbol the draft
// and the summary show; the rest are counted (premise run --json lists
// every one).
const MaxShownPerSymbol = 5

// Shown picks the changes a reviewer reads first: per symbol, one input
// for each distinct way base and head differ (a shrunk witness before the
// rows it came from, then the shortest input), then the other inputs,
// shortest first, each input once, at most MaxShownPerSymbol, in the order
// the symbols first appear. more counts the changes left out, per symbol.
func Shown(cs []BehaviorChange) (shown []BehaviorChange, more map[string]int) {
	bySymbol := map[string][]BehaviorChange{}
	var order []string
	for _, c := range cs {
		if _, ok := bySymbol[c.Symbol]; !ok {
			order = append(order, c.Symbol)
		}
		bySymbol[c.Symbol] = append(bySymbol[c.Symbol], c)
	}
	more = map[string]int{}
	for _, s := range order {
		group := bySymbol[s]
		sort.SliceStable(group, func(i, j int) bool {
			if group[i].Witness != group[j].Witness {
				return group[i].Witness
			}
			return utf8.RuneCountInString(group[i].Input) < utf8.RuneCountInString(group[j].Input)
		})
		var first, rest []BehaviorChange
		outcomes, inputs := map[string]bool{}, map[string]bool{}
		for _, c := range group {
			switch {
			case inputs[c.Input]:
				continue // the same input under another assumption's row
			case !outcomes[c.Base+"\x00"+c.Head]:
				outcomes[c.Base+"\x00"+c.Head] = true
				first = append(first, c)
			default:
				rest = append(rest, c)
			}
			inputs[c.Input] = true
		}
		picked := append(first, rest...)
		n := min(len(picked), MaxShownPerSymbol)
		shown = append(shown, picked[:n]...)
		if left := len(group) - n; left > 0 {
			more[s] = left
		}
	}
	return shown, more
}
