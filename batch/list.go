package batch

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/premise-dev/premise/internal/git"
)

// PR is one pull (or merge) request to run.
type PR struct {
	// ID names the PR's directory under the output directory: its number,
	// or what a ref glob's wildcards matched.
	ID     string
	Number int // 0 when the ref names no number
	Title  string
	// Ref is the git ref the PR was listed from ("" from gh's JSON).
	Ref string
	// Head is the commit to resolve: the ref, or gh's headRefOid.
	Head string
	// Base is the base branch gh names ("" from refs: Config.Base).
	Base string
}

// DefaultRefs is the pattern of the refs GitHub exposes pull requests as.
const DefaultRefs = "refs/pull/*/head"

// ListRefs lists the refs of the repository at dir matching pattern, one
// PR each: "*" matches within one path component, "**" across them, "?"
// one character; the text the wildcards matched is the PR's ID, and its
// number when it is one (refs/pull/123/head, refs/merge-requests/7/head).
func ListRefs(ctx context.Context, dir, pattern string) ([]PR, error) {
	re, err := globRegexp(pattern)
	if err != nil {
		return nil, err
	}
	out, err := git.At(dir).Run(ctx, "for-each-ref", "--format=%(refname)")
	if err != nil {
		return nil, fmt.Errorf("list refs of %s: %w", dir, err)
	}
	var prs []PR
	for _, ref := range strings.Fields(string(out)) {
		m := re.FindStringSubmatch(ref)
		if m == nil {
			continue
		}
		id := strings.Join(m[1:], "/")
		if len(m) == 1 {
			id = ref[strings.LastIndexByte(ref, '/')+1:]
		}
		pr := PR{ID: dirName(id), Ref: ref, Head: ref}
		if n, err := strconv.Atoi(id); err == nil && n > 0 {
			pr.Number = n
		}
		prs = append(prs, pr)
	}
	sortPRs(prs)
	return prs, nil
}

func globRegexp(pattern string) (*regexp.Regexp, error) {
	if pattern == "" || strings.ContainsAny(pattern, " \t\n") {
		return nil, fmt.Errorf("ref pattern %q: want a glob such as %s", pattern, DefaultRefs)
	}
	var b strings.Builder
	b.WriteString("^")
	for i := 0; i < len(pattern); i++ {
		switch c := pattern[i]; {
		case c == '*' && i+1 < len(pattern) && pattern[i+1] == '*':
			b.WriteString("(.+)")
			i++
		case c == '*':
			b.WriteString("([^/]+)")
		case c == '?':
			b.WriteString("[^/]")
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	b.WriteString("$")
	return regexp.Compile(b.String())
}

// ghPR is one entry of `gh pr list --json number,title,headRefOid,baseRefName`.
type ghPR struct {
	Number      int    `json:"number"`
	Title       string `json:"title"`
	HeadRefOid  string `json:"headRefOid"`
	BaseRefName string `json:"baseRefName"`
}

// ReadPRs reads the JSON `gh pr list --json
// number,title,headRefOid,baseRefName` writes (other fields are ignored).
// An error names the file and the entry.
func ReadPRs(path string) ([]PR, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read pull requests: %w", err)
	}
	var list []ghPR
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&list); err != nil {
		return nil, fmt.Errorf("%s: not the JSON of gh pr list --json number,title,headRefOid,baseRefName: %v", path, err)
	}
	seen := map[int]bool{}
	prs := make([]PR, 0, len(list))
	for i, g := range list {
		switch {
		case g.Number <= 0:
			return nil, fmt.Errorf("%s: entry %d: no number", path, i+1)
		case !isHex(g.HeadRefOid):
			return nil, fmt.Errorf("%s: entry %d (#%d): headRefOid %q is not a commit id", path, i+1, g.Number, g.HeadRefOid)
		case seen[g.Number]:
			return nil, fmt.Errorf("%s: entry %d: #%d is listed twice", path, i+1, g.Number)
		}
		seen[g.Number] = true
		prs = append(prs, PR{ID: strconv.Itoa(g.Number), Number: g.Number, Title: g.Title, Head: g.HeadRefOid, Base: g.BaseRefName})
	}
	sortPRs(prs)
	return prs, nil
}

func isHex(s string) bool {
	if len(s) < 7 || len(s) > 64 {
		return false
	}
	for _, c := range s {
		if !strings.ContainsRune("0123456789abcdefABCDEF", c) {
			return false
		}
	}
	return true
}

// dirName makes id safe as one directory name.
func dirName(id string) string {
	b := []byte(id)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			b[i] = '_'
		}
	}
	s := string(b)
	if strings.Trim(s, ".") == "" {
		s = "_" + s
	}
	return s
}

// sortPRs orders PRs by number, then ID: the order workers take them in.
func sortPRs(prs []PR) {
	sort.SliceStable(prs, func(i, j int) bool {
		if prs[i].Number != prs[j].Number {
			return prs[i].Number < prs[j].Number
		}
		return prs[i].ID < prs[j].ID
	})
}

// Shard is one of N shards of a batch, numbered from 1; the zero Shard is
// the whole batch.
type Shard struct{ I, N int }

// ParseShard reads "I/N".
func ParseShard(s string) (Shard, error) {
	var sh Shard
	if s == "" {
		return sh, nil
	}
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 1 || i > n {
		return sh, fmt.Errorf("--shard %q: want I/N with 1 <= I <= N, such as 2/4", s)
	}
	return Shard{I: i, N: n}, nil
}

func (s Shard) String() string {
	if s.N == 0 {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.I, s.N)
}

// Has reports whether the PR falls in the shard. It depends on the PR's ID
// alone, so every machine of a CI matrix, listing the PRs for itself,
// agrees on who takes which, even when a PR opened or closed between
// their listings.
func (s Shard) Has(pr PR) bool {
	if s.N <= 1 {
		return true
	}
	h := fnv.New32a()
	h.Write([]byte(pr.ID))
	return int(h.Sum32()%uint32(s.N)) == s.I-1
}
