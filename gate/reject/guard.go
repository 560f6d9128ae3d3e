package reject

import (
	"context"
	"fmt"
	"io"
	"net/mail"
	"sort"
	"strings"

	"github.com/premise-dev/premise/internal/git"
)

// Guard enforces seed 000's protected-path rule, on the net change (issue
// 26, item 5): every protected path whose content differs between the
// merge-base and the head needs a sign-off premise can trust on every
// commit that changed it, merges included. A sign-off is trusted when it
// comes from a signer the merge-base's settings list, or when the commit
// carries a signature git verify-commit accepts against the merge-base's
// allowed signers. A Signed-off-by trailer is text the agent can type: with
// neither configured, every protected change is blocked.
type Guard struct {
	// Repo is the repository whose history is checked.
	Repo *git.Repo
	// Protected lists the protected paths; one ending in "/" is a directory.
	Protected []string
	// Signers are the identities whose Signed-off-by counts ("Name
	// <email>" or a bare email), their own commits included.
	Signers []string
	// AllowedSigners, when set, is an SSH allowed-signers file: a commit
	// signed with a key it lists (git verify-commit) is signed off, and
	// one that is not is blocked whatever its trailers say.
	AllowedSigners string
}

// GuardCommit is one commit of the range that changes a protected path the
// net change still differs in (or, for a path no commit is seen to change
// against any of its parents, the head, which holds the change).
type GuardCommit struct {
	SHA     string
	Subject string
	Author  string   // "Name <email>"
	Paths   []string // the protected paths it changes
	Signers []string // its Signed-off-by trailers
	// Accepted is the trailer (or signature) that signs the change off;
	// empty when none does.
	Accepted string
	// Unverified says why a required signature is missing or not
	// accepted, or that no signer is configured; "" otherwise.
	Unverified string
}

// Signed reports whether a trusted reviewer signed the commit off (and,
// where required, signed it).
func (c GuardCommit) Signed() bool { return c.Accepted != "" && c.Unverified == "" }

// GuardReport is the guard's verdict over a range of commits.
type GuardReport struct {
	Base, Head string
	MergeBase  string
	Commits    int           // commits in the range
	Touching   []GuardCommit // commits that change a protected path
}

// Blocked returns the commits that change a protected path without a
// trusted sign-off.
func (r *GuardReport) Blocked() []GuardCommit {
	var out []GuardCommit
	for _, c := range r.Touching {
		if !c.Signed() {
			out = append(out, c)
		}
	}
	return out
}

// NotConfigured is why a protected change is blocked in a repository
// whose merge-base names no signer and no allowed-signers file.
const NotConfigured = "no signer is configured at the merge-base: list the reviewers whose sign-off counts in .premise.yaml (reject: signers: [\"Name <email>\"]), or require signed commits (reject: require_signed: true, allowed_signers: FILE), on the base branch"

// Check judges the net change from the merge-base of base and head to
// head. It returns an error only when git cannot answer (an unknown
// revision, not a repository).
func (g *Guard) Check(ctx context.Context, base, head string) (*GuardReport, error) {
	out, err := g.git(ctx, "rev-list", "--reverse", base+".."+head, "--")
	if err != nil {
		return nil, err
	}
	mb, err := g.git(ctx, "merge-base", base, head)
	if err != nil {
		return nil, err
	}
	mb = strings.TrimSpace(mb)
	rep := &GuardReport{Base: base, Head: head, MergeBase: mb}
	// The net change: what differs between the merge-base and the head,
	// however the commits between got there (a merge that restores an
	// older file changes nothing against one of its parents).
	// --no-renames lists both sides of a rename, so moving a fixture out
	// of the corpus counts.
	netNames, err := g.git(ctx, "diff", "--name-only", "--no-renames", "--no-ext-diff", "-z", mb, head, "--")
	if err != nil {
		return nil, err
	}
	net := map[string]bool{}
	for _, p := range strings.Split(netNames, "\x00") {
		if p != "" && g.protected(p) {
			net[p] = true
		}
	}
	covered := map[string]bool{}
	shas := strings.Fields(out)
	for _, sha := range shas {
		rep.Commits++
		if len(net) == 0 {
			continue
		}
		// -m lists what the commit changed against each of its parents, so
		// a merge is judged like any commit.
		names, err := g.git(ctx, "diff-tree", "-r", "-m", "--root", "--no-commit-id", "--name-only", "--no-renames", "-z", sha)
		if err != nil {
			return nil, err
		}
		var touched []string
		seen := map[string]bool{}
		for _, p := range strings.Split(names, "\x00") {
			if net[p] && !seen[p] {
				seen[p] = true
				touched = append(touched, p)
				covered[p] = true
			}
		}
		if len(touched) == 0 {
			continue
		}
		c, err := g.judge(ctx, sha, touched)
		if err != nil {
			return nil, err
		}
		rep.Touching = append(rep.Touching, c)
	}
	var left []string
	for p := range net {
		if !covered[p] {
			left = append(left, p)
		}
	}
	if len(left) > 0 {
		sort.Strings(left)
		tip, err := g.git(ctx, "rev-parse", "--verify", "--end-of-options", head+"^{commit}")
		if err != nil {
			return nil, err
		}
		c, err := g.judge(ctx, strings.TrimSpace(tip), left)
		if err != nil {
			return nil, err
		}
		rep.Touching = append(rep.Touching, c)
	}
	return rep, nil
}

// judge reads commit sha's author, subject, trailers and signature and
// decides whether its change to paths is signed off.
func (g *Guard) judge(ctx context.Context, sha string, paths []string) (GuardCommit, error) {
	// git parses the trailer block itself, so a "Signed-off-by:" in the
	// body's prose does not count.
	info, err := g.git(ctx, "show", "-s", "--format=%an <%ae>%x00%s%x00%(trailers:key=Signed-off-by,valueonly,unfold,separator=%x1f)", sha)
	if err != nil {
		return GuardCommit{}, err
	}
	f := strings.SplitN(strings.TrimSuffix(info, "\n"), "\x00", 3)
	for len(f) < 3 {
		f = append(f, "")
	}
	c := GuardCommit{SHA: sha, Author: f[0], Subject: f[1], Paths: paths}
	for _, s := range strings.Split(f[2], "\x1f") {
		if s = strings.TrimSpace(s); s != "" {
			c.Signers = append(c.Signers, s)
		}
	}
	if len(g.Signers) == 0 && g.AllowedSigners == "" {
		c.Unverified = NotConfigured
		return c, nil
	}
	for _, s := range c.Signers {
		if g.counts(s) {
			c.Accepted = s
			break
		}
	}
	if g.AllowedSigners != "" {
		if _, err := g.git(ctx, "-c", "gpg.ssh.allowedSignersFile="+g.AllowedSigners, "verify-commit", sha); err != nil {
			c.Unverified = "no signature git verify-commit accepts against the allowed signers"
		} else if c.Accepted == "" {
			// The signature is the sign-off: a key the merge-base lists.
			c.Accepted = "a verified signature"
			if len(c.Signers) > 0 {
				c.Accepted = c.Signers[0]
			}
		}
	}
	return c, nil
}

// protected reports whether path p is protected.
func (g *Guard) protected(p string) bool {
	for _, q := range g.Protected {
		q = strings.TrimPrefix(q, "./")
		if p == strings.TrimSuffix(q, "/") || strings.HasPrefix(p, strings.TrimSuffix(q, "/")+"/") {
			return true
		}
	}
	return false
}

// counts reports whether a Signed-off-by identity is one of the signers
// the merge-base configured. Anyone else's trailer is text the agent could
// have typed (issue 26, item 5).
func (g *Guard) counts(signer string) bool {
	sName, sMail := identity(signer)
	if sMail == "" {
		return false // "Signed-off-by: someone" names nobody who can be asked
	}
	for _, a := range g.Signers {
		aName, aMail := identity(a)
		if aMail == sMail && (aName == "" || aName == sName) {
			return true
		}
	}
	return false
}

// identity splits "Name <email>" into a folded name and a lower-case email.
func identity(s string) (name, email string) {
	if a, err := mail.ParseAddress(s); err == nil {
		return strings.ToLower(strings.Join(strings.Fields(a.Name), " ")), strings.ToLower(a.Address)
	}
	s = strings.TrimSpace(s)
	if strings.Contains(s, "@") && !strings.ContainsAny(s, " <>") {
		return "", strings.ToLower(s)
	}
	return strings.ToLower(strings.Join(strings.Fields(s), " ")), ""
}

func (g *Guard) git(ctx context.Context, args ...string) (string, error) {
	out, err := g.Repo.Run(ctx, args...)
	return string(out), err
}

// WriteText writes one line per commit that touches a protected path and a
// summary.
func (r *GuardReport) WriteText(w io.Writer) error {
	var b strings.Builder
	for _, c := range r.Touching {
		if c.Signed() {
			fmt.Fprintf(&b, "SIGNED %s %s (Signed-off-by: %s)\n", short7(c.SHA), c.Subject, c.Accepted)
		} else {
			why := "no Signed-off-by trailer"
			switch {
			case c.Unverified != "":
				why = c.Unverified
			case len(c.Signers) > 0:
				why = "Signed-off-by only from " + strings.Join(c.Signers, ", ") + ", not a signer the merge-base's .premise.yaml lists (reject.signers): a listed signer adds theirs (git commit --amend --no-edit --trailer \"Signed-off-by: NAME <EMAIL>\")"
			}
			fmt.Fprintf(&b, "UNSIGNED %s %s: changes %s; %s\n", short7(c.SHA), c.Subject, strings.Join(c.Paths, ", "), why)
		}
	}
	fmt.Fprintf(&b, "commits=%d protected=%d unsigned=%d\n", r.Commits, len(r.Touching), len(r.Blocked()))
	_, err := io.WriteString(w, b.String())
	return err
}

func short7(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	return sha
}
