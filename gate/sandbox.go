package gate

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// DefaultMaxProcs bounds the processes a worker's user may run at once
// (RLIMIT_NPROC): a subject that forks without end is stopped there.
const DefaultMaxProcs = 512

// envAllowed are the variables a worker inherits from premise's
// environment; everything else (model keys, CI tokens, cloud credentials)
// stays out of the subject's reach (DESIGN.md, "Trust").
// USER, LOGNAME, SHELL and CI are there because a plain run of the
// project's tests has them: a subject that finds them missing knows it is
// judged (issue 26, tells).
var envAllowed = []string{"PATH", "LANG", "LANGUAGE", "TZ", "TERM", "LD_LIBRARY_PATH", "VIRTUAL_ENV", "PYTHONHASHSEED", "USER", "LOGNAME", "SHELL", "CI"}

// secretWords mark a variable as a secret whatever the allow-list says.
var secretWords = []string{"TOKEN", "SECRET", "KEY", "PASSWORD", "PASSWD", "CREDENTIAL", "AUTH", "COOKIE", "SESSION"}

// sandboxEnv is a worker's environment built from env by the allow-list
// (and LC_* locale variables), with HOME and TMPDIR two directories apart
// in scratch, a private directory, as on an ordinary machine (issue 26,
// item 7). A variable whose name says it holds a secret never passes.
func sandboxEnv(env []string, scratch string) []string {
	out := make([]string, 0, len(envAllowed)+4)
	for _, kv := range env {
		name, _, ok := strings.Cut(kv, "=")
		if !ok || isSecretName(name) {
			continue
		}
		if strings.HasPrefix(name, "LC_") || contains(envAllowed, name) {
			out = append(out, kv)
		}
	}
	return append(out, "HOME="+filepath.Join(scratch, "home"), "TMPDIR="+filepath.Join(scratch, "tmp"))
}

func isSecretName(name string) bool {
	up := strings.ToUpper(name)
	for _, w := range secretWords {
		if strings.Contains(up, w) {
			return true
		}
	}
	return false
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// namespaces are the kernel namespaces a worker's init starts in, where the
// kernel allows an unprivileged user namespace: a new network namespace (no
// network at all, not even loopback to a listener on the host), a new PID
// namespace (when premise kills the init, every process the worker left
// behind dies too, setsid or not) and, where it can be had, a new mount
// namespace in which everything but the private copy and the scratch
// directory is read-only (sandboxinit.go).
const namespaces = syscall.CLONE_NEWUSER | syscall.CLONE_NEWNET | syscall.CLONE_NEWPID

var (
	nsOnce sync.Once
	nsOK   bool // namespaces work
	sealOK bool // and a mount namespace sealed read-only too
)

// namespacesAllowed reports, once per process, whether a child can be
// started in namespaces (some kernels and container runtimes refuse
// unprivileged user namespaces), and whether its mounts can be sealed.
func namespacesAllowed() bool {
	nsOnce.Do(func() {
		path, err := exec.LookPath("true")
		if err != nil {
			return
		}
		for _, seal := range []bool{true, false} {
			cmd := exec.Command(path)
			cmd.Dir = os.TempDir()
			if err := isolate(cmd, seal, []string{os.TempDir()}, 0); err != nil {
				return
			}
			if cmd.Run() == nil {
				nsOK, sealOK = true, seal
				return
			}
		}
	})
	return nsOK
}

// isolate turns cmd into the same command started by premise's own
// sandbox init (sandboxinit.go) in the namespaces, mapping premise's own
// user and group into them so the worker reads the tree as it would
// outside. With seal, the init's mounts are read-only but rw.
func isolate(cmd *exec.Cmd, seal bool, rw []string, memory int64) error {
	return isolateHiding(cmd, seal, rw, nil, memory)
}

// isolateHiding is isolate whose init also empties the directories of
// hide, where it seals.
func isolateHiding(cmd *exec.Cmd, seal bool, rw, hide []string, memory int64) error {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	a := cmd.SysProcAttr
	a.Cloneflags |= namespaces
	if seal {
		a.Cloneflags |= syscall.CLONE_NEWNS
	}
	a.UidMappings = []syscall.SysProcIDMap{{ContainerID: os.Getuid(), HostID: os.Getuid(), Size: 1}}
	a.GidMappings = []syscall.SysProcIDMap{{ContainerID: os.Getgid(), HostID: os.Getgid(), Size: 1}}
	a.GidMappingsEnableSetgroups = false
	c := initConfig{Seal: seal, NProc: DefaultMaxProcs, Hide: hide}
	if memory > 0 {
		c.AS = uint64(memory)
	}
	for _, d := range rw {
		if d == "" {
			continue
		}
		if real, err := filepath.EvalSymlinks(d); err == nil {
			d = real
		}
		c.RW = append(c.RW, d)
	}
	for i, f := range cmd.ExtraFiles {
		if f != nil {
			c.FDs = append(c.FDs, 3+i)
		}
	}
	raw, err := json.Marshal(c)
	if err != nil {
		return err
	}
	path := cmd.Path
	if cmd.Err != nil {
		return cmd.Err
	}
	if _, err := exec.LookPath(path); err != nil {
		return err // as Start would say, before the init hides it
	}
	cmd.Args = append([]string{path, path}, cmd.Args[1:]...)
	cmd.Path = "/proc/self/exe"
	if cmd.Env == nil {
		cmd.Env = os.Environ()
	}
	cmd.Env = append(cmd.Env, initEnv+"="+string(raw))
	return nil
}

// Isolated reports whether workers start in their own network and PID
// namespaces on this machine.
func Isolated() bool { return namespacesAllowed() }

// Sealed reports whether workers also start in a mount namespace where
// everything but their private copy and scratch directory is read-only.
func Sealed() bool { return namespacesAllowed() && sealOK }

// Isolation says how a worker is isolated, for a one-line notice in
// reports when the network is not cut off.
func Isolation() string {
	switch {
	case Sealed():
		return "workers run without network, in their own PID namespace, with every file but their private copy read-only"
	case namespacesAllowed():
		return "workers run without network, in their own PID namespace; this kernel refuses a sealed mount namespace, so a subject can write what your user can"
	}
	return "this kernel refuses unprivileged user namespaces: workers run with the network and may leave processes behind"
}

// sandbox prepares cmd for a worker: the environment from the allow-list
// with a private HOME, and, where allowed, the namespaces and the init
// that starts the worker there with rw (its copy) and home writable. Call
// it once cmd's ExtraFiles are set: the init passes them on.
func sandbox(cmd *exec.Cmd, env []string, home string, memory int64, writable ...string) error {
	for _, d := range []string{"home", "tmp"} {
		if err := os.MkdirAll(filepath.Join(home, d), 0o700); err != nil {
			return err
		}
	}
	cmd.Env = sandboxEnv(env, home)
	if cmd.Dir != "" {
		// As a shell that started the run would say (issue 26, tells).
		cmd.Env = append(cmd.Env, "PWD="+cmd.Dir)
	}
	if namespacesAllowed() {
		rw := append([]string{cmd.Dir, home}, writable...)
		return isolateHiding(cmd, sealOK, rw, append(sources.of(cmd.Dir), credentials(rw)...), memory)
	}
	return nil
}

// limitProcs caps the worker's processes once it has started. The worker
// harnesses set their address-space limit themselves; an exec worker gets
// it here too (or from its init, which passes both on).
func limitProcs(pid int, memory int64) {
	_ = unix.Prlimit(pid, unix.RLIMIT_NPROC, &unix.Rlimit{Cur: DefaultMaxProcs, Max: DefaultMaxProcs}, nil)
	if memory > 0 && !namespacesAllowed() {
		_ = unix.Prlimit(pid, unix.RLIMIT_AS, &unix.Rlimit{Cur: uint64(memory), Max: uint64(memory)}, nil)
	}
}
