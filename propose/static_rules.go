package propose

import (
	"fmt"
	"strings"

	"github.com/premise-dev/premise/internal/settings"
)

// NewStaticConfig returns the static proposer with every built-in rule but
// those cfg turns off (.premise.yaml rules: disable:).
func NewStaticConfig(cfg Config) *Static {
	off := map[string]bool{}
	for _, n := range cfg.DisabledRules {
		off[strings.TrimPrefix(n, "static:")] = true
	}
	s := &Static{}
	for _, r := range AllRules() {
		if !off[r.Name] {
			s.Rules = append(s.Rules, r)
		}
	}
	return s
}

// checkRuleNames refuses a rules: disable: entry that names no rule, as
// the file's other sections refuse unknown keys: a misspelt name would
// leave the rule on without a word.
func checkRuleNames(s *settings.Settings) error {
	known := map[string]bool{}
	for _, r := range AllRules() {
		known[r.Name] = true
	}
	for _, n := range s.Rules.Disable {
		if !known[strings.TrimPrefix(n, "static:")] {
			return fmt.Errorf("%s:%d: rules: disable: no rule %q (premise rules lists them)", s.Name, s.Rules.Line, n)
		}
	}
	return nil
}
