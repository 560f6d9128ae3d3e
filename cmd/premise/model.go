package main

import (
	"context"
	"errors"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/premise-dev/premise/internal/git"
	"github.com/premise-dev/premise/propose"
)

// modelCheckOptions are the flags of premise model check.
type modelCheckOptions struct {
	Repo string
	JSON bool

	Model propose.Config // after .premise.yaml, the environment and the flags

	Getenv func(string) string
	Stdout io.Writer
	Stderr io.Writer
}

func newModelCmd(s Streams) *cobra.Command {
	c := &cobra.Command{
		Use:   "model",
		Short: "Check the model endpoint premise propose would ask",
		Long: `Check the model endpoint premise propose would ask.

  premise model check     one tiny request: what the endpoint and model support`,
		Args: cobra.NoArgs,
	}
	c.AddCommand(newModelCheckCmd(s, runModelCheck))
	return c
}

func newModelCheckCmd(s Streams, runF func(context.Context, modelCheckOptions) error) *cobra.Command {
	opts := modelCheckOptions{Getenv: os.Getenv, Stdout: s.Out, Stderr: s.Err}
	var model modelFlags
	c := &cobra.Command{
		Use:   "check [--endpoint URL] [--model NAME] [--api-key-env VAR]",
		Short: "Send one tiny request and say what the endpoint supports",
		Long: `Send one tiny request and say what the endpoint supports.

premise asks the model with the settings premise propose would use (flags,
then PREMISE_* variables, then .premise.yaml in --repo) and reports: whether
the endpoint is reachable, whether the key is accepted, whether the model
exists, and which of temperature (sent as 0), seed, max_tokens and
response_format (json_schema, then json_object) it accepts. A parameter the
endpoint refuses is dropped and the request sent again, as a run does
(max_tokens becomes max_completion_tokens when the endpoint asks for it);
what was refused is remembered in the cache dir, so the next premise propose
does not pay the refusal again (--no-cache: not remembered).

  premise model check --endpoint http://localhost:11434/v1 --model qwen2.5-coder:7b
  OPENAI_API_KEY=... premise model check --endpoint https://api.openai.com/v1 --model gpt-5-mini
  premise model check --json      the same, as one JSON object`,
		Args: noArgs,
		RunE: func(c *cobra.Command, args []string) error {
			opts.Repo, opts.JSON = repoTop(c), jsonOn(c)
			// The merge-base's settings, as propose and run read them: a
			// checkout's own .premise.yaml could point the key at another
			// endpoint. Outside a repository with a base, the work tree's.
			from := settingsFrom{repo: opts.Repo}
			if _, err := git.Open(c.Context(), opts.Repo); err != nil {
				from.patch = true // no history to trust: the directory's own file
			}
			cfg, err := model.config(c, from, opts.Getenv)
			if err == nil && cfg.Static() {
				err = errors.New("model check needs an endpoint and a model: set --endpoint and --model (or PREMISE_ENDPOINT and PREMISE_MODEL, or endpoint: and model: in " + propose.ConfigFile + ")")
			}
			if err != nil {
				return opts.fail(err)
			}
			opts.Model = cfg
			return runF(c.Context(), opts)
		},
	}
	exits(c, "0 the endpoint is usable: premise propose can ask it",
		"3 it is not (unreachable, key refused, no such model, a request it refuses whatever is dropped), or bad flags")
	model.bind(c)
	return c
}

// fail reports an error that stopped the check; Main prints it, as JSON
// too under --json. The exit status is 3.
func (o modelCheckOptions) fail(err error) error { return err }

func runModelCheck(ctx context.Context, opts modelCheckOptions) error {
	o, err := propose.NewOpenAI(opts.Model, opts.Getenv(opts.Model.APIKeyEnv))
	if err != nil {
		return opts.fail(err)
	}
	s, err := o.Check(ctx)
	if err != nil {
		return err
	}
	if opts.JSON {
		err = propose.WriteSupportJSON(opts.Stdout, s)
	} else {
		err = propose.WriteSupport(opts.Stdout, s)
	}
	if err != nil {
		return err
	}
	if !s.Usable {
		return verdict(exitCouldNotRun)
	}
	return nil
}
