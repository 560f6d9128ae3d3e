package reject

import (
	"context"
	"fmt"
	"io"
	"net/mail"
	"strings"

	"github.com/premise-dev/premise/internal/git"
)

// Guard enforces seed 000's protected-path rule: any commit that changes the
// corpus or the lockfile needs a Signed-off-by trailer from a reviewer, not
// from the agent's commit template.
type Guard struct {
	// Repo is the repository whose history is checked.
	Repo *git.Repo
	// Protected lists the protected paths; one ending in "/" is a directory.
	Protected []string
	// Signers are identities whose sign-off counts even on their own
	// commits ("Name <email>" or a bare email).
	Signers []string
	// AllowedSigners, when set, is an SSH allowed-signers file: a commit
	// that changes a protected path must also carry a signature git
	// verify-commit accepts against it.
	AllowedSigners string
}

// GuardCommit is one commit of the range that touches a protected path.
type GuardCommit struct {
	SHA     string
	Subject string
	Author  string   // "Name <email>"
	Paths   []string // the protected paths it changes
	Signers []string // its Signed-off-by trailers
	// Accepted is the trailer that signs the change off; empty when none does.
	Accepted string
	// Unverified says why a required signature is missing or not accepted;
	// "" when none is required or it verified.
	Unverified string
}

// Signed reports whether a reviewer signed the commit off (and, where
// required, signed it).
func (c GuardCommit) Signed() bool { return c.Accepted != "" && c.Unverified == "" }

// GuardReport is the guard's verdict over a range of commits.
type GuardReport struct {
	Base, Head string
	Commits    int           // commits in the range
	Touching   []GuardCommit // commits that change a protected path
}

// Blocked returns the commits that change a protected path without a
// reviewer's sign-off.
func (r *GuardReport) Blocked() []GuardCommit {
	var out []GuardCommit
	for _, c := range r.Touching {
		if !c.Signed() {
			out = append(out, c)
		}
	}
	return out
}

// Check examines every commit in base..head. It returns an error only when
// git cannot answer (an unknown revision, not a repository).
func (g *Guard) Check(ctx context.Context, base, head string) (*GuardReport, error) {
	out, err := g.git(ctx, "rev-list", "--reverse", base+".."+head, "--")
	if err != nil {
		return nil, err
	}
	rep := &GuardReport{Base: base, Head: head}
	for _, sha := range strings.Fields(out) {
		rep.Commits++
		// -c lists what a merge itself changed against all its parents;
		// --no-renames lists both sides of a rename, so moving a fixture
		// out of the corpus counts.
		names, err := g.git(ctx, "diff-tree", "-r", "-c", "--root", "--no-commit-id", "--name-only", "--no-renames", "-z", sha)
		if err != nil {
			return nil, err
		}
		var touched []string
		for _, p := range strings.Split(names, "\x00") {
			if p != "" && g.protected(p) {
				touched = append(touched, p)
			}
		}
		if len(touched) == 0 {
			continue
		}
		// git parses the trailer block itself, so a "Signed-off-by:" in the
		// body's prose does not count.
		info, err := g.git(ctx, "show", "-s", "--format=%an <%ae>%x00%s%x00%(trailers:key=Signed-off-by,valueonly,unfold,separator=%x1f)", sha)
		if err != nil {
			return nil, err
		}
		f := strings.SplitN(strings.TrimSuffix(info, "\n"), "\x00", 3)
		for len(f) < 3 {
			f = append(f, "")
		}
		c := GuardCommit{SHA: sha, Author: f[0], Subject: f[1], Paths: touched}
		for _, s := range strings.Split(f[2], "\x1f") {
			if s = strings.TrimSpace(s); s != "" {
				c.Signers = append(c.Signers, s)
			}
		}
		for _, s := range c.Signers {
			if g.counts(s, c.Author) {
				c.Accepted = s
				break
			}
		}
		if g.AllowedSigners != "" {
			if _, err := g.git(ctx, "-c", "gpg.ssh.allowedSignersFile="+g.AllowedSigners, "verify-commit", sha); err != nil {
				c.Unverified = "no signature git verify-commit accepts against the allowed signers"
			}
		}
		rep.Touching = append(rep.Touching, c)
	}
	return rep, nil
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

// counts reports whether a Signed-off-by identity signs off a commit by
// author: it is on the allow-list, or neither its name nor its email is the
// author's (an agent's template that signs as its own author does not count).
func (g *Guard) counts(signer, author string) bool {
	sName, sMail := identity(signer)
	for _, a := range g.Signers {
		aName, aMail := identity(a)
		if sMail != "" && aMail == sMail && (aName == "" || aName == sName) {
			return true
		}
	}
	aName, aMail := identity(author)
	if sMail == "" {
		return false // "Signed-off-by: someone" names nobody who can be asked
	}
	return sMail != aMail && (sName == "" || sName != aName)
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
			case c.Accepted != "":
				why = c.Unverified
			case len(c.Signers) > 0:
				why = "Signed-off-by only from the author " + c.Author + ", which is not a reviewer's sign-off: another person adds theirs (git commit --amend --no-edit --trailer \"Signed-off-by: NAME <EMAIL>\"), or the merge-base's .premise.yaml lists the author in reject.signers"
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
