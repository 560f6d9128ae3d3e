package comment

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strings"
)

// Hosts premise posts to.
const (
	GitHub = "github"
	GitLab = "gitlab"
)

// Actions Post reports.
const (
	ActionCreated   = "created"
	ActionUpdated   = "updated"
	ActionUnchanged = "unchanged" // the comment already says it
	ActionNone      = "none"      // nothing to say and no comment to update
	ActionDryRun    = "dry-run"
)

// MaxBody is the longest comment body posted: GitHub refuses more than
// 65536 characters, GitLab a little over a million.
const MaxBody = 65000

// Config is one post.
type Config struct {
	// Draft is the draft to post (draft.md of premise run or batch).
	Draft []byte
	// Host is GitHub or GitLab.
	Host string
	// API is the API's base URL: GITHUB_API_URL (https://api.github.com,
	// or a GitHub Enterprise server's /api/v3), GitLab's CI_API_V4_URL.
	API string
	// Repo is "owner/name" on GitHub, the project's id or path on GitLab.
	Repo string
	// PR is the pull request's number (the merge request's iid).
	PR int
	// Token authenticates; it is sent in a header only.
	Token string
	// HTTP sends the requests; http.DefaultClient when nil.
	HTTP *http.Client
	// DryRun reads the PR's comments and says what would be posted,
	// posting nothing.
	DryRun bool
}

// Result is what Post did.
type Result struct {
	Action string `json:"action"`
	ID     int64  `json:"id"`
	URL    string `json:"url"`
	// Items are what fires now; Struck what fired before and no longer
	// does.
	Items  int    `json:"items"`
	Struck int    `json:"struck"`
	Body   string `json:"-"`
}

// note is a comment as a host holds it.
type note struct {
	ID   int64
	Body string
	URL  string
}

// host is what Post asks of GitHub or GitLab.
type host interface {
	list(ctx context.Context) ([]note, error)
	create(ctx context.Context, body string) (note, error)
	edit(ctx context.Context, id int64, body string) (note, error)
}

// Post puts the draft on the PR as one comment: the comment carrying
// premise's marker is edited when there is one (when what it says changed),
// else one is created, unless nothing fires. The error means the host could
// not be asked or refused.
func Post(ctx context.Context, cfg Config) (*Result, error) {
	h, err := newHost(cfg)
	if err != nil {
		return nil, err
	}
	notes, err := h.list(ctx)
	if err != nil {
		return nil, err
	}
	var old *note
	for i := range notes {
		if strings.Contains(notes[i].Body, markerPrefix) {
			old = &notes[i]
			break
		}
	}
	var before []Item
	if old != nil {
		before = decodeMarker(old.Body)
	}
	now := Items(cfg.Draft)
	res := &Result{Items: len(now)}
	if old == nil && len(now) == 0 {
		res.Action = ActionNone
		return res, nil
	}
	body, struck := Render(cfg.Draft, now, before)
	res.Body, res.Struck = body, struck
	switch {
	case cfg.DryRun:
		res.Action = ActionDryRun
		if old != nil {
			res.ID, res.URL = old.ID, old.URL
		}
		return res, nil
	case old != nil && strings.TrimSpace(old.Body) == strings.TrimSpace(body):
		res.Action, res.ID, res.URL = ActionUnchanged, old.ID, old.URL
		return res, nil
	case old != nil:
		n, err := h.edit(ctx, old.ID, body)
		if err != nil {
			return nil, err
		}
		res.Action, res.ID, res.URL = ActionUpdated, n.ID, n.URL
	default:
		n, err := h.create(ctx, body)
		if err != nil {
			return nil, err
		}
		res.Action, res.ID, res.URL = ActionCreated, n.ID, n.URL
	}
	return res, nil
}

func newHost(cfg Config) (host, error) {
	if cfg.PR <= 0 {
		return nil, fmt.Errorf("pull request number %d: want a positive number", cfg.PR)
	}
	if cfg.Repo == "" {
		return nil, errors.New("no repository named: on GitHub owner/name ($GITHUB_REPOSITORY), on GitLab the project ($CI_PROJECT_ID)")
	}
	hc := cfg.HTTP
	if hc == nil {
		hc = http.DefaultClient
	}
	switch cfg.Host {
	case GitHub:
		return newGitHub(cfg, hc)
	case GitLab:
		return newGitLab(cfg, hc), nil
	}
	return nil, fmt.Errorf("host %q: want %s or %s", cfg.Host, GitHub, GitLab)
}

// Item is one thing the draft says fires: an assumption row, a behaviour
// change, a finding. Key identifies it across pushes; Text is how it reads.
type Item struct {
	Key    string `json:"k"`
	Text   string `json:"t"`
	Struck bool   `json:"s,omitempty"`
}

// Items reads what fires from a draft: the rows of its assumption table
// (by symbol and precondition, so renumbering is no change) and the items
// of its lists (behaviour changes, findings).
func Items(draft []byte) []Item {
	var out []Item
	seen := map[string]bool{}
	add := func(key, text string) {
		k := hash(key)
		if !seen[k] {
			seen[k] = true
			out = append(out, Item{Key: k, Text: text})
		}
	}
	for _, line := range strings.Split(string(draft), "\n") {
		switch {
		case tableRow.MatchString(line):
			cells := splitRow(line)
			if len(cells) >= 4 {
				add("row\x00"+cells[2]+"\x00"+cells[3], cells[2]+": "+cells[3])
			}
		case strings.HasPrefix(line, "- "):
			add("item\x00"+line, strings.TrimPrefix(line, "- "))
		case strings.HasPrefix(line, "**The head does not load"):
			add("head\x00"+line, strings.TrimSpace(line))
		}
	}
	return out
}

// tableRow is a row of the draft's assumption table: "| A001 | ...".
var tableRow = regexp.MustCompile(`^\| A\d+ \|`)

// splitRow splits a Markdown table row at its unescaped pipes.
func splitRow(line string) []string {
	var cells []string
	var cur strings.Builder
	for i := 0; i < len(line); i++ {
		switch {
		case line[i] == '\\' && i+1 < len(line):
			cur.WriteByte(line[i])
			cur.WriteByte(line[i+1])
			i++
		case line[i] == '|':
			cells = append(cells, strings.TrimSpace(cur.String()))
			cur.Reset()
		default:
			cur.WriteByte(line[i])
		}
	}
	if len(cells) > 0 {
		cells = cells[1:] // before the first pipe
	}
	return cells
}

func hash(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:8])
}

// The marker is an HTML comment GitHub and GitLab do not show, holding the
// items the comment listed, so the next push can strike those that
// stopped firing.
const markerPrefix = "<!-- premise:comment "

var markerRe = regexp.MustCompile(`<!-- premise:comment v1 ([A-Za-z0-9_=-]*) -->`)

func encodeMarker(items []Item) string {
	b, _ := json.Marshal(items)
	return markerPrefix + "v1 " + base64.RawURLEncoding.EncodeToString(b) + " -->"
}

func decodeMarker(body string) []Item {
	m := markerRe.FindStringSubmatch(body)
	if m == nil {
		return nil
	}
	b, err := base64.RawURLEncoding.DecodeString(m[1])
	if err != nil {
		return nil
	}
	var items []Item
	if json.Unmarshal(b, &items) != nil {
		return nil
	}
	return items
}

// Render is the comment's body: the marker, the draft, and what fired
// before and no longer does, struck through; it returns how many are
// struck. An item that fires again is no longer struck.
func Render(draft []byte, now, before []Item) (string, int) {
	current := map[string]bool{}
	for _, it := range now {
		current[it.Key] = true
	}
	var struck []Item
	for _, it := range before {
		if !current[it.Key] {
			it.Struck = true
			struck = append(struck, it)
		}
	}
	text := strings.TrimRight(string(draft), "\n")
	keep := append(append([]Item{}, now...), struck...)
	marker := encodeMarker(keep)
	var b strings.Builder
	b.WriteString(marker + "\n")
	room := MaxBody - len(marker) - 200
	for _, it := range struck {
		room -= len(it.Text) + 10
	}
	if len(text) > room {
		cut := text[:max(room, 0)]
		if i := strings.LastIndexByte(cut, '\n'); i > 0 {
			cut = cut[:i]
		}
		text = cut + "\n\n*The draft was cut to fit one comment; the whole of it is premise run's draft.md.*"
	}
	b.WriteString(text + "\n")
	if len(struck) > 0 {
		b.WriteString("\n### No longer firing\n\n")
		for _, it := range struck {
			fmt.Fprintf(&b, "- ~~%s~~\n", strings.ReplaceAll(it.Text, "~~", "\\~\\~"))
		}
	}
	return b.String(), len(struck)
}
