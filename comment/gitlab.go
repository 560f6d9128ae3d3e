package comment

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// gitLab posts merge-request notes through GitLab's v4 REST API.
type gitLab struct {
	hc    *http.Client
	base  string // .../projects/<id>/merge_requests/<iid>/notes
	token string
	mr    string
}

func newGitLab(cfg Config, hc *http.Client) host {
	api := cfg.API
	if api == "" {
		api = "https://gitlab.com/api/v4"
	}
	base := fmt.Sprintf("%s/projects/%s/merge_requests/%d/notes", strings.TrimRight(api, "/"), url.PathEscape(cfg.Repo), cfg.PR)
	return &gitLab{hc: hc, base: base, token: cfg.Token, mr: fmt.Sprintf("%s!%d", cfg.Repo, cfg.PR)}
}

type glNote struct {
	ID   int64  `json:"id"`
	Body string `json:"body"`
}

func (g *gitLab) do(ctx context.Context, method, u string, body any, out any) (http.Header, error) {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return nil, err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, u, rd)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	if g.token != "" {
		req.Header.Set("PRIVATE-TOKEN", g.token)
	}
	resp, err := g.hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("merge request %s: %w", g.mr, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	if err != nil {
		return nil, fmt.Errorf("merge request %s: %w", g.mr, err)
	}
	if resp.StatusCode >= 300 {
		msg := strings.Join(strings.Fields(string(data)), " ")
		if len(msg) > 200 {
			msg = msg[:200] + "..."
		}
		return nil, fmt.Errorf("merge request %s: %s %s: HTTP %d: %s", g.mr, method, u, resp.StatusCode, msg)
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			return nil, fmt.Errorf("merge request %s: the reply to %s %s is not a note: %v", g.mr, method, u, err)
		}
	}
	return resp.Header, nil
}

func (g *gitLab) list(ctx context.Context) ([]note, error) {
	var out []note
	for page := 1; ; {
		var ns []glNote
		h, err := g.do(ctx, http.MethodGet, fmt.Sprintf("%s?per_page=100&page=%d&sort=asc", g.base, page), nil, &ns)
		if err != nil {
			return nil, err
		}
		for _, n := range ns {
			out = append(out, note{ID: n.ID, Body: n.Body})
		}
		next, err := strconv.Atoi(h.Get("X-Next-Page"))
		if err != nil || next <= page {
			return out, nil
		}
		page = next
	}
}

func (g *gitLab) create(ctx context.Context, body string) (note, error) {
	var n glNote
	if _, err := g.do(ctx, http.MethodPost, g.base, map[string]string{"body": body}, &n); err != nil {
		return note{}, err
	}
	return note{ID: n.ID, Body: n.Body}, nil
}

func (g *gitLab) edit(ctx context.Context, id int64, body string) (note, error) {
	var n glNote
	if _, err := g.do(ctx, http.MethodPut, fmt.Sprintf("%s/%d", g.base, id), map[string]string{"body": body}, &n); err != nil {
		return note{}, err
	}
	return note{ID: n.ID, Body: n.Body}, nil
}
