package reject

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"
)

// DefaultEnvironmentalPath is the side file of seed 000, Step 3: "If a case
// is truly environmental, record last_held_at and expires_on in a side file
// owned by humans."
const DefaultEnvironmentalPath = "must_reject.environmental.json"

// Excuse records that an entry's failure to answer is environmental (a
// staging service that times out, a sandbox without a network) until a
// date. It excuses only "no reject" (every attempt timed out, crashed or got
// no HTTP answer): a forbidden success or a wrong class, status or code is
// never excused, so the patch still cannot turn the entry into a success.
type Excuse struct {
	Reason     string `json:"reason"`
	LastHeldAt string `json:"last_held_at"` // YYYY-MM-DD
	ExpiresOn  string `json:"expires_on"`   // YYYY-MM-DD, the last day the excuse holds

	expires time.Time
}

// Environmental is the side file: entry id -> excuse.
type Environmental map[string]Excuse

// LoadEnvironmental reads the side file at path, checking every id against
// lock. A missing file is no excuses.
func LoadEnvironmental(path string, lock *Lock) (Environmental, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Environmental{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read environmental excuses: %w", err)
	}
	return ParseEnvironmental(path, data, lock)
}

// ParseEnvironmental strictly parses the side file's bytes: unknown fields,
// repeated keys, ids the lockfile does not hold and malformed dates are each
// a *LockError naming the line.
func ParseEnvironmental(name string, data []byte, lock *Lock) (Environmental, error) {
	lerr := lockErrorf(name)
	keys, err := scanFile(name, data)
	if err != nil {
		return nil, err
	}
	lineOf := map[string]int{}
	for _, k := range keys {
		lineOf[k.Path+"/"+k.Key] = k.Line
		switch {
		case k.Path == "":
			if k.Key != "version" && k.Key != "entries" {
				return nil, lerr(k.Line, "unknown field %q (known: version, entries)", k.Key)
			}
		case k.Path == "entries":
		default:
			if k.Key != "reason" && k.Key != "last_held_at" && k.Key != "expires_on" {
				return nil, lerr(k.Line, "unknown field %q in %s (known: reason, last_held_at, expires_on)", k.Key, k.Path)
			}
		}
	}
	var doc struct {
		Version int           `json:"version"`
		Entries Environmental `json:"entries"`
	}
	if err := json.NewDecoder(bytes.NewReader(data)).Decode(&doc); err != nil {
		return nil, lerr(0, "%v", err)
	}
	if doc.Version != 1 {
		return nil, lerr(lineOf["/version"], "version must be 1, not %d", doc.Version)
	}
	ids := map[string]bool{}
	for _, e := range lock.Entries {
		ids[e.ID] = true
	}
	out := Environmental{}
	for id, x := range doc.Entries {
		line := lineOf["entries/"+id]
		if !ids[id] {
			return nil, lerr(line, "%s is not an entry of the lockfile", id)
		}
		if x.Reason == "" {
			return nil, lerr(line, "%s: an environmental excuse needs a reason", id)
		}
		if _, err := time.Parse(time.DateOnly, x.LastHeldAt); err != nil {
			return nil, lerr(line, "%s: last_held_at %q is not a date (YYYY-MM-DD)", id, x.LastHeldAt)
		}
		exp, err := time.Parse(time.DateOnly, x.ExpiresOn)
		if err != nil {
			return nil, lerr(line, "%s: expires_on %q is not a date (YYYY-MM-DD)", id, x.ExpiresOn)
		}
		x.expires = exp
		out[id] = x
	}
	return out, nil
}

// excuse applies the side file to a finished result.
func (env Environmental) excuse(res Result, now time.Time) Result {
	x, ok := env[res.ID]
	if !ok || res.Held || res.Reason != ReasonNoReject {
		return res
	}
	// The excuse holds through the whole of its last day, in UTC.
	if now.UTC().Before(x.expires.AddDate(0, 0, 1)) {
		res.Held, res.Reason = true, ReasonExcused
		res.Detail = fmt.Sprintf("held: excused as environmental until %s (%s; last held %s): %s", x.ExpiresOn, x.Reason, x.LastHeldAt, res.Detail)
		return res
	}
	res.Detail = fmt.Sprintf("%s; its environmental excuse expired on %s", res.Detail, x.ExpiresOn)
	return res
}
