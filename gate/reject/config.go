package reject

import (
	"strings"

	"github.com/premise-dev/premise/internal/settings"
)

// Config is the reject: section of .premise.yaml (internal/settings reads
// the file). Every field is optional; paths are relative to the repository
// root. Protected lists the paths whose changes need a reviewer's
// Signed-off-by (one ending in "/" is a directory; empty means the corpus
// directory, the lockfile and the environmental side file); Signers are
// identities ("Name <email>" or "email") whose Signed-off-by counts even on
// their own commits.
type Config settings.Reject

// WithDefaults fills in seed 000's names for what c leaves empty.
func (c Config) WithDefaults() Config {
	if c.Lock == "" {
		c.Lock = DefaultLockPath
	}
	if c.Corpus == "" {
		c.Corpus = DefaultCorpusDir
	}
	if c.Environmental == "" {
		c.Environmental = DefaultEnvironmentalPath
	}
	if len(c.Protected) == 0 {
		c.Protected = []string{strings.TrimSuffix(c.Corpus, "/") + "/", c.Lock, c.Environmental}
	}
	return c
}

// LoadConfig reads the reject: section of the .premise.yaml at path. A
// missing file is the defaults.
func LoadConfig(path string) (Config, error) {
	s, err := settings.LoadFile(path)
	if err != nil {
		return Config{}, err
	}
	return Config(s.Reject).WithDefaults(), nil
}
