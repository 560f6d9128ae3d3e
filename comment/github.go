package comment

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/google/go-github/v74/github"
)

// gitHub posts through GitHub's REST API: a pull request's conversation
// comments are its issue comments.
type gitHub struct {
	c           *github.Client
	owner, name string
	pr          int
}

func newGitHub(cfg Config, hc *http.Client) (host, error) {
	owner, name, ok := strings.Cut(cfg.Repo, "/")
	if !ok || owner == "" || name == "" || strings.Contains(name, "/") {
		return nil, fmt.Errorf("repository %q: want owner/name", cfg.Repo)
	}
	c := github.NewClient(hc)
	if cfg.Token != "" {
		c = c.WithAuthToken(cfg.Token)
	}
	api := cfg.API
	if api == "" {
		api = "https://api.github.com"
	}
	u, err := url.Parse(strings.TrimRight(api, "/") + "/")
	if err != nil || u.Scheme == "" || u.Host == "" {
		return nil, fmt.Errorf("GitHub API URL %q: want a URL such as https://api.github.com", api)
	}
	c.BaseURL = u
	return &gitHub{c: c, owner: owner, name: name, pr: cfg.PR}, nil
}

func (g *gitHub) list(ctx context.Context) ([]note, error) {
	var out []note
	opts := &github.IssueListCommentsOptions{ListOptions: github.ListOptions{PerPage: 100}}
	for {
		cs, resp, err := g.c.Issues.ListComments(ctx, g.owner, g.name, g.pr, opts)
		if err != nil {
			return nil, fmt.Errorf("list the comments of %s/%s#%d: %w", g.owner, g.name, g.pr, err)
		}
		for _, c := range cs {
			out = append(out, note{ID: c.GetID(), Body: c.GetBody(), URL: c.GetHTMLURL()})
		}
		if resp.NextPage == 0 {
			return out, nil
		}
		opts.Page = resp.NextPage
	}
}

func (g *gitHub) create(ctx context.Context, body string) (note, error) {
	c, _, err := g.c.Issues.CreateComment(ctx, g.owner, g.name, g.pr, &github.IssueComment{Body: &body})
	if err != nil {
		return note{}, fmt.Errorf("comment on %s/%s#%d: %w", g.owner, g.name, g.pr, err)
	}
	return note{ID: c.GetID(), Body: c.GetBody(), URL: c.GetHTMLURL()}, nil
}

func (g *gitHub) edit(ctx context.Context, id int64, body string) (note, error) {
	c, _, err := g.c.Issues.EditComment(ctx, g.owner, g.name, id, &github.IssueComment{Body: &body})
	if err != nil {
		return note{}, fmt.Errorf("edit comment %d on %s/%s#%d: %w", id, g.owner, g.name, g.pr, err)
	}
	return note{ID: c.GetID(), Body: c.GetBody(), URL: c.GetHTMLURL()}, nil
}
