package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/premise-dev/premise/internal/git"
)

// The flags every command has (issue 15, "one CLI convention"). They are
// persistent flags of the root, so a command added later has them too:
//
//	--json      print the command's JSON on stdout, errors included
//	--quiet     nothing on stdout or stderr but errors and --json's JSON
//	--verbose   progress on stderr even when it is not a terminal
//	--repo DIR  the repository; every relative path is read from its top level
//
// Report files are --json-file, --junit, --sarif and --markdown FILE; --out
// is always a directory; --call-timeout bounds one call of the code under
// review and --model-timeout one model request.
const (
	flagJSON    = "json"
	flagQuiet   = "quiet"
	flagVerbose = "verbose"
	flagRepo    = "repo"
)

// DefaultSeed is the seed of the metamorphic shuffles when --seed is not
// given, the same for every command and printed in every report, so a
// failure replays exactly.
const DefaultSeed = 1

// addGlobalFlags adds the flags every command shares to the root.
func addGlobalFlags(root *cobra.Command) {
	f := root.PersistentFlags()
	var j, q, v bool
	f.Var(&switchValue{on: &j, name: flagJSON,
		hint: "print JSON to standard output with --json; to write it to a file use --json-file %s (the fixture of reject add is --fixture TEXT)"}, flagJSON,
		"print the command's result as JSON on stdout; an error is {\"error\": ..., \"exit\": N}")
	f.Lookup(flagJSON).NoOptDefVal = "true"
	f.BoolVar(&q, flagQuiet, false, "print nothing but errors (and the JSON --json asks for)")
	f.BoolVar(&v, flagVerbose, false, "show progress on stderr even when it is not a terminal")
	f.String(flagRepo, "", "the repository `DIR` (default: the one holding the working directory); relative paths are read from its top level")
}

// switchValue is a boolean flag that says what to do instead when it is
// given a value: --json=gate.json was once a file and is now a switch.
type switchValue struct {
	on   *bool
	name string
	hint string // a format with one %s, the value given
}

func (v *switchValue) Set(s string) error {
	b, err := strconv.ParseBool(s)
	if err != nil {
		return fmt.Errorf("--%s is a switch and takes no value; "+v.hint, v.name, s)
	}
	*v.on = b
	return nil
}
func (v *switchValue) String() string   { return strconv.FormatBool(*v.on) }
func (v *switchValue) Type() string     { return "bool" }
func (v *switchValue) IsBoolFlag() bool { return true }

// jsonOn reports whether --json was given to c.
func jsonOn(c *cobra.Command) bool { return boolFlag(c, flagJSON) }

// quietOn reports whether --quiet was given to c.
func quietOn(c *cobra.Command) bool { return boolFlag(c, flagQuiet) }

// verboseOn reports whether --verbose was given to c.
func verboseOn(c *cobra.Command) bool { return boolFlag(c, flagVerbose) }

func boolFlag(c *cobra.Command, name string) bool {
	f := c.Flag(name)
	return f != nil && f.Value.Type() == "bool" && f.Value.String() == "true"
}

// repoTop returns the directory relative paths are read from: the top
// level of the repository --repo names (by default the one holding the
// working directory), so premise run from a subdirectory reads and writes
// the files at the top. Outside a repository it is --repo itself, or ".".
func repoTop(c *cobra.Command) string {
	dir := "."
	if f := c.Flag(flagRepo); f != nil && f.Value.String() != "" {
		dir = f.Value.String()
	}
	ctx := c.Context()
	if ctx == nil {
		ctx = context.Background()
	}
	r, err := git.Open(ctx, dir)
	if err != nil {
		return dir
	}
	top, err := r.Top(ctx)
	if err != nil {
		return dir
	}
	return top
}

// inTop makes each relative path in paths relative to top. "" and "-"
// (standard input or output) stay as they are.
func inTop(top string, paths ...*string) {
	for _, p := range paths {
		if *p == "" || *p == "-" || filepath.IsAbs(*p) || top == "." {
			continue
		}
		*p = filepath.Join(top, *p)
	}
}

// inDir is name inside dir, or in top when dir is empty: the files --out
// DIR holds.
func inDir(top, dir, name string) string {
	if dir == "" {
		dir = top
	} else {
		inTop(top, &dir)
	}
	return filepath.Join(dir, name)
}

// shown is path as a message shows it: relative to the working directory
// when it is near, as the user would type it.
func shown(path string) string {
	wd, err := os.Getwd()
	if err != nil || !filepath.IsAbs(path) {
		return path
	}
	// From a subdirectory ../assumptions.yaml says where it is; a path far
	// from the working directory reads better whole.
	if r, err := filepath.Rel(wd, path); err == nil && !strings.HasPrefix(r, "../..") {
		return r
	}
	return path
}

// outDir checks that --out names a directory, as it does everywhere; a
// file there (or a name ending in .yaml) gets instead, what to write.
func outDir(dir, instead string) error {
	if dir == "" {
		return nil
	}
	if fi, err := os.Stat(dir); err == nil && !fi.IsDir() || err != nil && strings.HasSuffix(dir, ".yaml") {
		return fmt.Errorf("--out %s: --out is a directory; %s", dir, instead)
	}
	return nil
}

// renamed adds a hidden flag under a name premise no longer uses, whose
// use says what to write instead; a string flag, so it is refused even
// given a value.
func renamed(c *cobra.Command, old, instead string) {
	c.Flags().Var(refusedValue{msg: instead}, old, instead)
	_ = c.Flags().MarkHidden(old)
}

type refusedValue struct{ msg string }

func (v refusedValue) Set(string) error { return errors.New(v.msg) }
func (v refusedValue) String() string   { return "" }
func (v refusedValue) Type() string     { return "string" }

// noArgs is cobra.NoArgs saying what to do when the argument is a file
// that once followed --json.
func noArgs(c *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	if jsonOn(c) && !strings.HasPrefix(args[0], "-") {
		return fmt.Errorf("%s: --json is a switch and takes no value; print JSON to standard output with --json; to write it to a file use --json-file %s", c.CommandPath(), args[0])
	}
	return cobra.NoArgs(c, args)
}

// couldNotRunDoc is what exit 3 means for a command that says no more.
const couldNotRunDoc = "premise could not do its job: bad flags, unreadable or invalid input"

const exitsAnnotation = "premise-exit-codes"

// exits records the exit codes c can return, each as "CODE meaning"; the
// root appends them to c's help as its EXIT STATUS. Code 3 (bad flags,
// invalid input) is listed for every command; give it to say more.
func exits(c *cobra.Command, codes ...string) *cobra.Command {
	if c.Annotations == nil {
		c.Annotations = map[string]string{}
	}
	c.Annotations[exitsAnnotation] = strings.Join(codes, "\n")
	return c
}

// exitHelp is the EXIT STATUS section of c's help, from exits.
func exitHelp(c *cobra.Command) string {
	byCode := map[int]string{}
	for _, l := range strings.Split(c.Annotations[exitsAnnotation], "\n") {
		code, text, _ := strings.Cut(strings.TrimSpace(l), " ")
		n, err := strconv.Atoi(code)
		if err != nil {
			continue
		}
		byCode[n] = strings.TrimSpace(text)
	}
	if _, ok := byCode[exitCouldNotRun]; !ok {
		byCode[exitCouldNotRun] = couldNotRunDoc
	}
	codes := make([]int, 0, len(byCode))
	for n := range byCode {
		codes = append(codes, n)
	}
	sort.Ints(codes)
	var b strings.Builder
	b.WriteString("\nEXIT STATUS\n")
	for _, n := range codes {
		fmt.Fprintf(&b, "  %-3d %s\n", n, wrap(byCode[n], 70, "      "))
	}
	return b.String()
}

// exitCodes are the codes c's help lists.
func exitCodes(c *cobra.Command) []int {
	var out []int
	for _, l := range strings.Split(strings.TrimSpace(exitHelp(c)), "\n")[1:] {
		if n, err := strconv.Atoi(strings.Fields(l)[0]); err == nil {
			out = append(out, n)
		}
	}
	return out
}

// wrap folds text at width, continuing lines with indent.
func wrap(text string, width int, indent string) string {
	var b strings.Builder
	n := 0
	for i, w := range strings.Fields(text) {
		if i > 0 && n+1+len(w) > width {
			b.WriteString("\n" + indent)
			n = 0
		} else if i > 0 {
			b.WriteString(" ")
			n++
		}
		b.WriteString(w)
		n += len(w)
	}
	return b.String()
}

// finishHelp appends the EXIT STATUS of c and of every command under it.
func finishHelp(c *cobra.Command) {
	if c.Annotations[exitsAnnotation] != "" || c.Runnable() {
		c.Long = strings.TrimRight(c.Long, "\n") + "\n" + exitHelp(c)
	}
	for _, sub := range c.Commands() {
		finishHelp(sub)
	}
}

// output is standard output or error as a command sees it: muted by
// --quiet, and remembering whether anything was written, so that an error
// under --json is printed as JSON only when the command printed nothing.
type output struct {
	w       io.Writer
	muted   bool
	written bool
}

func (o *output) Write(p []byte) (int, error) {
	if o.muted {
		return len(p), nil
	}
	o.written = o.written || len(p) > 0
	return o.w.Write(p)
}

// Fd lets a muted or tracked stream still be asked whether it is a
// terminal.
func (o *output) Fd() uintptr {
	if f, ok := o.w.(interface{ Fd() uintptr }); ok {
		return f.Fd()
	}
	return ^uintptr(0)
}

// applyQuiet mutes the command's streams under --quiet: its text and its
// warnings go, the JSON --json asks for stays, and Main still prints the
// error that ends a run.
func applyQuiet(c *cobra.Command, s Streams) {
	if !quietOn(c) {
		return
	}
	if o, ok := s.Out.(*output); ok && !jsonOn(c) {
		o.muted = true
	}
	if o, ok := s.Err.(*output); ok {
		o.muted = true
	}
}

// wantsJSON reports whether the command run was asked for JSON: by its
// flag, or, when the flags did not parse, by --json among the arguments.
func wantsJSON(c *cobra.Command, args []string) bool {
	if c != nil && jsonOn(c) {
		return true
	}
	for _, a := range args {
		if a == "--" {
			break
		}
		if a == "--json" || a == "--json=true" {
			return true
		}
	}
	return false
}

// writeErrorJSON prints the error that ended a run as premise's JSON.
func writeErrorJSON(w io.Writer, err error, code int) {
	msg := fmt.Sprintf("exit status %d", code)
	if err != nil {
		var ee *exitError
		if !errors.As(err, &ee) || ee.err != nil {
			msg = oneLine(err.Error())
		}
	}
	b, _ := json.Marshal(struct {
		Error string `json:"error"`
		Exit  int    `json:"exit"`
	}{msg, code})
	fmt.Fprintf(w, "%s\n", b)
}

// sharedFlags has a command read the flags every command shares (--repo,
// --json) into its own options before it runs; repo may be nil.
func sharedFlags(c *cobra.Command, repo *string, asJSON *bool) {
	prev := c.PreRunE
	c.PreRunE = func(c *cobra.Command, args []string) error {
		if repo != nil {
			*repo = repoTop(c)
		}
		*asJSON = jsonOn(c)
		if prev != nil {
			return prev(c, args)
		}
		return nil
	}
}
