package evidence

import (
	"regexp"
	"slices"
	"strings"

	"github.com/premise-dev/premise/diffparse"
	"github.com/premise-dev/premise/evidence/lang"
)

// calleeLits gives each target the string literals of the other changed
// functions of its language that it calls on either side: a helper the
// patch adds, deletes or changes (packageurl's typeAdjustVersion, which
// names "huggingface") is reached through its callers' rows, and a
// deleted one through nothing else, so its words belong in their pools
// as the changed data's do (Target.DataLits).
func calleeLits(res *diffparse.Result, targets []lang.Target) {
	if res == nil {
		return
	}
	type helper struct {
		lang, sym string
		call      *regexp.Regexp
		lits      []string
	}
	var helpers []helper
	for _, f := range res.Files {
		var baseDecls []diffparse.Decl
		for _, s := range f.Symbols {
			if s.Kind != "function" && s.Kind != "method" {
				continue
			}
			var texts []string
			if f.HeadSrc != nil && s.Change != "deleted" {
				texts = append(texts, lang.Span(f.HeadSrc, s.Start, s.End))
			}
			if f.BaseSrc != nil && s.Change != "added" {
				if baseDecls == nil {
					baseDecls, _ = diffparse.Decls(f.Language, f.BaseSrc)
				}
				texts = append(texts, declText(f.BaseSrc, baseDecls, s.Local))
			}
			lits := lang.Literals(texts...)
			if len(lits) == 0 {
				continue
			}
			name := s.Local[strings.LastIndex(s.Local, ".")+1:]
			call := regexp.MustCompile(`(^|[^\w$])` + regexp.QuoteMeta(name) + `\s*\(`)
			helpers = append(helpers, helper{lang: f.Language, sym: s.Name, call: call, lits: lits})
		}
	}
	for i := range targets {
		tg := &targets[i]
		for _, h := range helpers {
			if h.lang != tg.Lang || h.sym == tg.Sym.Name || !(h.call.MatchString(tg.BaseText) || h.call.MatchString(tg.HeadText)) {
				continue
			}
			for _, l := range h.lits {
				if !slices.Contains(tg.DataLits, l) {
					tg.DataLits = append(tg.DataLits, l)
				}
			}
		}
	}
}
