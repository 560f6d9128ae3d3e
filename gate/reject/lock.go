package reject

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"

	"github.com/premise-dev/premise/internal/atomicfile"
)

// DefaultLockPath and DefaultCorpusDir are seed 000's names, relative to the
// repository root.
const (
	DefaultLockPath  = "must_reject.lock.json"
	DefaultCorpusDir = "corpus/must_reject"
)

// Kinds of failure an entry must keep producing.
const (
	KindException = "exception" // the call raises Must.Class (and Must.Code)
	KindHTTP      = "http"      // the endpoint answers Must.Status (and body code Must.Code)
)

// Flake policies (seed 000, Step 3).
const (
	// PolicyNeverSkip needs three consecutive holds on the isolated runner.
	PolicyNeverSkip = "never-skip"
	// PolicyFreezeClassOnly may retry a call that timed out or crashed, but
	// a success on any attempt still fails the gate.
	PolicyFreezeClassOnly = "freeze-class-only"
)

// Lock is must_reject.lock.json: the human-owned specification of inputs
// that must keep failing.
type Lock struct {
	Version int     `json:"version"`
	Entries []Entry `json:"entries"`
}

// Entry is one forbidden input and the failure it must keep producing.
type Entry struct {
	ID          string `json:"id"`
	Target      string `json:"target"`
	InputSHA256 string `json:"input_sha256"`
	InputPath   string `json:"input_path"`
	Must        Must   `json:"must"`
	FlakePolicy string `json:"flake_policy,omitempty"`

	// Line is where the entry's id is in the lockfile, for messages.
	Line int `json:"-"`
}

// Policy returns the entry's flake policy; an absent one is never-skip, the
// stricter of the two.
func (e Entry) Policy() string {
	if e.FlakePolicy == "" {
		return PolicyNeverSkip
	}
	return e.FlakePolicy
}

// Must is the failure an entry must produce. Code is compared as JSON: a
// string in the lockfile matches only a string code.
type Must struct {
	Kind   string `json:"kind"`
	Class  string `json:"class,omitempty"`
	Status int    `json:"status,omitempty"`
	Code   any    `json:"code,omitempty"`
}

// LockError is a lockfile premise refuses to run: it names the file and the
// line, and maps to exit status 3.
type LockError struct {
	File string
	Line int
	Msg  string
}

func (e *LockError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

var (
	// idPattern keeps ids to one word: HOLD and BROKEN lines are split on
	// spaces by the CI scripts that read them.
	idPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._:-]*$`)
	hexDigits = regexp.MustCompile(`^[0-9a-fA-F]*$`)

	// known lists the fields a lockfile may hold, by the path of the
	// object that holds them; anything else is refused, never ignored.
	known = map[string][]string{
		"":      {"version", "entries"},
		"entry": {"id", "target", "input_sha256", "input_path", "must", "flake_policy"},
		"must":  {"kind", "class", "status", "code"},
	}
	entryPath = regexp.MustCompile(`^entries\[(\d+)\]$`)
	mustPath  = regexp.MustCompile(`^entries\[(\d+)\]\.must$`)
)

// LoadLock reads and strictly checks the lockfile at path.
func LoadLock(path string) (*Lock, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read lockfile: %w", err)
	}
	return ParseLock(path, data)
}

// ParseLock strictly checks a lockfile's bytes; name is used in errors.
// Unknown fields, repeated keys, duplicate ids, a malformed hash, an unknown
// kind or flake policy are each a *LockError naming the line (issue 6, item
// 5). An empty hash, or a hex hash of the wrong length (seed 000's own
// placeholders are 8 digits), is kept: the Runner reports that entry as
// BROKEN and runs the others, so one unfinished row fails the gate without
// hiding the rest.
func ParseLock(name string, data []byte) (*Lock, error) {
	lerr := lockErrorf(name)
	keys, err := scanFile(name, data)
	if err != nil {
		return nil, err
	}
	if t := bytes.TrimLeft(data, " \t\r\n"); len(t) == 0 || t[0] != '{' {
		return nil, lerr(1, "a lockfile is a JSON object with version and entries")
	}
	lineOf := map[string]int{} // "path/key" -> line
	var problems []error       // every problem of the file, reported at once
	for _, k := range keys {
		lineOf[k.Path+"/"+k.Key] = k.Line
		var schema string
		switch {
		case k.Path == "":
			schema = ""
		case entryPath.MatchString(k.Path):
			schema = "entry"
		case mustPath.MatchString(k.Path):
			schema = "must"
		case k.Path == "entries":
			continue // cannot happen: entries is an array
		default:
			continue // inside a code value, which may be any JSON
		}
		if !slices.Contains(known[schema], k.Key) {
			where := "the lockfile"
			if k.Path != "" {
				where = k.Path
			}
			problems = append(problems, lerr(k.Line, "unknown field %q in %s (known: %s)", k.Key, where, strings.Join(known[schema], ", ")))
		}
	}
	var lock Lock
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&lock); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return nil, lerr(1+bytes.Count(data[:min(int(te.Offset), len(data))], []byte{'\n'}),
				"%s must be a JSON %s, not %s", te.Field, te.Type, te.Value)
		}
		return nil, lerr(0, "%v", err)
	}
	if lock.Version != 1 {
		problems = append(problems, lerr(lineOf["/version"], "version must be 1, not %d", lock.Version))
	}
	if _, ok := lineOf["/entries"]; !ok {
		problems = append(problems, lerr(1, "no entries field"))
	}
	seen := map[string]int{}
	for i := range lock.Entries {
		e := &lock.Entries[i]
		p := fmt.Sprintf("entries[%d]", i)
		at := func(key string) int {
			if l, ok := lineOf[p+"/"+key]; ok {
				return l
			}
			// The entry lacks the key: point at the first key it has.
			for _, k := range keys {
				if k.Path == p {
					return k.Line
				}
			}
			return 1
		}
		e.Line = at("id")
		switch {
		case e.ID == "":
			problems = append(problems, lerr(at("id"), "%s has no id", p))
			continue
		case !idPattern.MatchString(e.ID):
			problems = append(problems, lerr(at("id"), "id %q must be one word of letters, digits and . _ : -", e.ID))
			continue
		}
		if first, ok := seen[e.ID]; ok {
			problems = append(problems, lerr(at("id"), "duplicate id %q (first at line %d)", e.ID, first))
			continue
		}
		seen[e.ID] = e.Line
		if e.Target == "" {
			problems = append(problems, lerr(at("target"), "entry %s has no target", e.ID))
			continue
		}
		if e.InputPath == "" {
			problems = append(problems, lerr(at("input_path"), "entry %s has no input_path", e.ID))
			continue
		}
		if !hexDigits.MatchString(e.InputSHA256) {
			problems = append(problems, lerr(at("input_sha256"), "entry %s: input_sha256 %q is not a hex sha256 (run sha256sum on the fixture)", e.ID, e.InputSHA256))
			continue
		}
		switch e.FlakePolicy {
		case "", PolicyNeverSkip, PolicyFreezeClassOnly:
		default:
			problems = append(problems, lerr(at("flake_policy"), "entry %s: flake_policy %q is not %s or %s", e.ID, e.FlakePolicy, PolicyNeverSkip, PolicyFreezeClassOnly))
			continue
		}
		mp := p + ".must"
		mat := func(key string) int {
			if l, ok := lineOf[mp+"/"+key]; ok {
				return l
			}
			return at("must")
		}
		if e.Must.Code != nil {
			switch e.Must.Code.(type) {
			case string, json.Number:
			default:
				problems = append(problems, lerr(mat("code"), "entry %s: must.code must be a string or a number", e.ID))
				continue
			}
		}
		switch e.Must.Kind {
		case KindException:
			if e.Must.Class == "" {
				problems = append(problems, lerr(mat("class"), "entry %s: an exception entry needs must.class", e.ID))
				continue
			}
			if e.Must.Status != 0 {
				problems = append(problems, lerr(mat("status"), "entry %s: must.status belongs to http entries", e.ID))
				continue
			}
		case KindHTTP:
			if e.Must.Status < 100 || e.Must.Status > 599 {
				problems = append(problems, lerr(mat("status"), "entry %s: an http entry needs must.status between 100 and 599", e.ID))
				continue
			}
			if e.Must.Status < 400 {
				problems = append(problems, lerr(mat("status"), "entry %s: must.status %d is not a rejection (4xx or 5xx)", e.ID, e.Must.Status))
				continue
			}
			if e.Must.Class != "" {
				problems = append(problems, lerr(mat("class"), "entry %s: must.class belongs to exception entries", e.ID))
				continue
			}
			if _, _, err := ParseHTTPTarget(e.Target); err != nil {
				problems = append(problems, lerr(at("target"), "entry %s: %v", e.ID, err))
				continue
			}
		case "":
			problems = append(problems, lerr(mat("kind"), "entry %s: must.kind is missing (exception or http)", e.ID))
			continue
		default:
			problems = append(problems, lerr(mat("kind"), "entry %s: must.kind %q is not exception or http", e.ID, e.Must.Kind))
			continue
		}
	}
	if len(problems) > 0 {
		return nil, errors.Join(problems...)
	}
	return &lock, nil
}

// ParseHTTPTarget splits an http entry's target, "POST /invoices/transition"
// or "/invoices/transition" (POST), into method and path.
func ParseHTTPTarget(target string) (method, path string, err error) {
	f := strings.Fields(target)
	switch {
	case len(f) == 1 && strings.HasPrefix(f[0], "/"):
		return "POST", f[0], nil
	case len(f) == 2 && strings.HasPrefix(f[1], "/") && f[0] == strings.ToUpper(f[0]):
		return f[0], f[1], nil
	}
	return "", "", fmt.Errorf("http target %q must be \"METHOD /path\" (for example \"POST /invoices/transition\")", target)
}

// Encode returns the lockfile's bytes: two-space indentation, fields in
// seed 000's order, one trailing newline.
func (l *Lock) Encode() ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(l); err != nil {
		return nil, fmt.Errorf("encode lockfile: %w", err)
	}
	return b.Bytes(), nil
}

// Save writes the lockfile atomically.
func (l *Lock) Save(path string) error {
	data, err := l.Encode()
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(path, data, 0o644)
}
