package reject

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"gopkg.in/yaml.v3"
)

// Config is the reject: section of .premise.yaml. Every field is optional.
//
//	reject:
//	  lock: must_reject.lock.json
//	  corpus: corpus/must_reject
//	  environmental: must_reject.environmental.json
//	  protected: [corpus/must_reject/, must_reject.lock.json, gate/frozen.json]
//	  signers: ["Rita Reviewer <rita@example.com>", lead@example.com]
type Config struct {
	// Lock is the lockfile, relative to the repository root.
	Lock string `yaml:"lock"`
	// Corpus is the fixture directory, relative to the repository root.
	Corpus string `yaml:"corpus"`
	// Environmental is the side file of environmental excuses, relative to
	// the repository root.
	Environmental string `yaml:"environmental"`
	// Protected lists the paths whose changes need a reviewer's
	// Signed-off-by; one ending in "/" is a directory. Empty means the
	// corpus directory, the lockfile and the environmental side file.
	Protected []string `yaml:"protected"`
	// Signers are identities ("Name <email>" or "email") whose
	// Signed-off-by counts even on their own commits.
	Signers []string `yaml:"signers"`
}

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
// missing file is the defaults; other sections belong to other commands and
// are not read here, but an unknown key inside reject: is an error.
func LoadConfig(path string) (Config, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Config{}.WithDefaults(), nil
	}
	if err != nil {
		return Config{}, fmt.Errorf("read config: %w", err)
	}
	var doc struct {
		Reject yaml.Node `yaml:"reject"`
	}
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return Config{}, fmt.Errorf("%s: %w", path, err)
	}
	var c Config
	if doc.Reject.Kind != 0 {
		// yaml.v3 checks unknown fields only in a Decoder, so the section
		// is encoded again and decoded strictly.
		section, err := yaml.Marshal(&doc.Reject)
		if err != nil {
			return Config{}, fmt.Errorf("%s: reject: %w", path, err)
		}
		dec := yaml.NewDecoder(bytes.NewReader(section))
		dec.KnownFields(true)
		if err := dec.Decode(&c); err != nil {
			return Config{}, fmt.Errorf("%s: reject section (starts at line %d): %w", path, doc.Reject.Line, err)
		}
	}
	return c.WithDefaults(), nil
}
