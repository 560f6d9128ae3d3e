package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/premise-dev/premise/comment"
)

// commentOptions are the flags of premise comment.
type commentOptions struct {
	Draft    string
	Config   comment.Config
	TokenEnv string
	JSON     bool

	Streams Streams
}

func newCommentCmd(s Streams) *cobra.Command {
	opts := commentOptions{Streams: s}
	var repo string
	c := &cobra.Command{
		Use:   "comment --pr N [--draft FILE] [--host github|gitlab]",
		Short: "Post the draft as one comment on the pull request, edited in place on each push",
		Long: `Post draft.md (premise run's, or one PR's of premise batch) as one comment on
the pull request. The comment carries a hidden marker: the next push edits
that comment in place instead of adding another; what fired before and no
longer does is struck through, not deleted; nothing is posted while there is
nothing to say and no comment yet.

GitHub: the REST API at $GITHUB_API_URL (GitHub Enterprise included; default
https://api.github.com), the repository $GITHUB_REPOSITORY, the token in
$GITHUB_TOKEN (the workflow's token needs pull-requests: write).
GitLab (--host gitlab, the default inside GitLab CI): merge-request notes at
$CI_API_V4_URL, the project $CI_PROJECT_ID, the token in $GITLAB_TOKEN (a
project access token with the api scope).

Examples:
  premise run --json > /dev/null; premise comment --pr "$PR_NUMBER"
  premise comment --pr 12 --draft premise-batch/12/draft.md
  premise comment --host gitlab --pr "$CI_MERGE_REQUEST_IID"
  premise comment --pr 12 --dry-run         # print the body, post nothing
`,
		Annotations: map[string]string{exitsAnnotation: "0 posted, edited, or nothing to post\n3 the draft cannot be read, or the host refused"},
		Args:        cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			if opts.Draft == "" {
				opts.Draft = filepath.Join(repo, "draft.md")
			}
			opts.Config.Host = orDefault(opts.Config.Host, hostFromEnv())
			gl := opts.Config.Host == comment.GitLab
			opts.Config.API = orDefault(opts.Config.API, os.Getenv(pick(gl, "CI_API_V4_URL", "GITHUB_API_URL")))
			opts.Config.Repo = orDefault(opts.Config.Repo, os.Getenv(pick(gl, "CI_PROJECT_ID", "GITHUB_REPOSITORY")))
			opts.TokenEnv = orDefault(opts.TokenEnv, pick(gl, "GITLAB_TOKEN", "GITHUB_TOKEN"))
			opts.Config.Token = os.Getenv(opts.TokenEnv)
			return runComment(c.Context(), opts)
		},
	}
	f := c.Flags()
	f.IntVar(&opts.Config.PR, "pr", 0, "the pull request's `N` (a merge request's iid on GitLab)")
	f.StringVar(&opts.Draft, "draft", "", "the draft to post (default DIR/draft.md)")
	f.StringVar(&opts.Config.Host, "host", "", "github or gitlab (default gitlab inside GitLab CI, else github)")
	f.StringVar(&opts.Config.Repo, "project", "", "owner/name on GitHub, the project id or path on GitLab (default $GITHUB_REPOSITORY or $CI_PROJECT_ID)")
	f.StringVar(&opts.Config.API, "api", "", "the API's base URL (default $GITHUB_API_URL or $CI_API_V4_URL)")
	f.StringVar(&opts.TokenEnv, "token-env", "", "the environment variable holding the token (default GITHUB_TOKEN or GITLAB_TOKEN)")
	f.BoolVar(&opts.Config.DryRun, "dry-run", false, "print what would be posted; post nothing")
	sharedFlags(c, &repo, &opts.JSON)
	c.MarkFlagRequired("pr")
	return c
}

func runComment(ctx context.Context, opts commentOptions) error {
	draft, err := os.ReadFile(opts.Draft)
	if err != nil {
		return jsonFail(opts.Streams.Out, opts.JSON, fmt.Errorf("read the draft: %w (premise run writes it)", err))
	}
	opts.Config.Draft = draft
	res, err := comment.Post(ctx, opts.Config)
	if err != nil {
		return jsonFail(opts.Streams.Out, opts.JSON, err)
	}
	switch {
	case opts.JSON:
		return writeIndentedJSON(opts.Streams.Out, res)
	case res.Action == comment.ActionDryRun:
		fmt.Fprint(opts.Streams.Out, res.Body)
	case res.Action == comment.ActionNone:
		fmt.Fprintf(opts.Streams.Out, "premise comment: nothing to say on #%d; nothing posted\n", opts.Config.PR)
	default:
		fmt.Fprintf(opts.Streams.Out, "premise comment: %s %s (%d items, %d struck through)\n", res.Action, orDefault(res.URL, fmt.Sprint(res.ID)), res.Items, res.Struck)
	}
	return nil
}

func hostFromEnv() string {
	if os.Getenv("GITLAB_CI") != "" {
		return comment.GitLab
	}
	return comment.GitHub
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func pick[T any](cond bool, a, b T) T {
	if cond {
		return a
	}
	return b
}
