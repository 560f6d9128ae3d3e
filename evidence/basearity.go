package evidence

import (
	"github.com/premise-dev/premise/evidence/lang"
	"github.com/premise-dev/premise/validate"
)

// maxBaseArityRows bounds the short rows of one target.
const maxBaseArityRows = 12

// baseArityRows are calls the base's signature allows and the head's
// does not: where the base gives trailing positional parameters defaults
// that the head requires (a default dropped, a parameter added without
// one), the target's first rows are made again with those arguments left
// out, as the base's callers call it. The head then refuses a call its
// base answered, which no row built from the head's signature alone can
// show. The base's signature is the trusted side's; the values are the
// rows' own.
func baseArityRows(tg lang.Target, rows []validate.Row, limit int) []validate.Row {
	if tg.Sig == nil || tg.BaseSig == nil {
		return nil
	}
	baseReq, headReq := requiredPositional(tg.BaseSig), requiredPositional(tg.Sig)
	if baseReq >= headReq {
		return nil
	}
	// A method's rows pass its receiver first, where its signature has
	// no self.
	off := 0
	if tg.Sym.Kind == "method" && (len(tg.Sig.Params) == 0 || (tg.Sig.Params[0].Name != "self" && tg.Sig.Params[0].Name != "cls")) {
		off = 1
	}
	var all []validate.Row
	seen := map[string]bool{}
	for _, r := range rows {
		args, kwargs := r.CallArgs()
		if len(kwargs) > 0 || len(args) < off+headReq {
			continue
		}
		for n := baseReq; n < headReq; n++ {
			short := append([]any{}, args[:off+n]...)
			// Values kept, not receivers, tell the short rows apart:
			// the first rows are most often one call on each receiver.
			k := lang.CallKey(short[off:], nil)
			if seen[k] {
				continue
			}
			seen[k] = true
			row := r
			row.Args, row.Kwargs = short, nil
			all = append(all, row)
		}
	}
	if len(all) <= limit {
		return all
	}
	// Spread over the rows, whose pools run one kind of value after
	// another: the first few alone may all be text.
	out := make([]validate.Row, 0, limit)
	for i := 0; i < limit; i++ {
		out = append(out, all[i*len(all)/limit])
	}
	return out
}

// requiredPositional counts the positional parameters a caller must pass:
// those before the first with a default.
func requiredPositional(sig *lang.Signature) int {
	n := 0
	for _, p := range sig.Params {
		if p.KeywordOnly || p.Default != "" {
			break
		}
		n++
	}
	return n
}
