package gate

import (
	"os"
	"os/exec"
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
var envAllowed = []string{"PATH", "LANG", "LANGUAGE", "TZ", "TERM", "LD_LIBRARY_PATH", "VIRTUAL_ENV", "PYTHONHASHSEED"}

// secretWords mark a variable as a secret whatever the allow-list says.
var secretWords = []string{"TOKEN", "SECRET", "KEY", "PASSWORD", "PASSWD", "CREDENTIAL", "AUTH", "COOKIE", "SESSION"}

// sandboxEnv is a worker's environment built from env by the allow-list
// (and LC_* locale variables), with HOME and TMPDIR set to home, a private
// directory. A variable whose name says it holds a secret never passes.
func sandboxEnv(env []string, home string) []string {
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
	return append(out, "HOME="+home, "TMPDIR="+home)
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

// namespaces are the kernel namespaces a worker starts in, where the kernel
// allows an unprivileged user namespace: a new network namespace (no
// network at all, not even loopback to a listener on the host) and a new
// PID namespace (the worker is its init, so when it is killed, or dies with
// premise, every process it left behind dies too, setsid or not).
const namespaces = syscall.CLONE_NEWUSER | syscall.CLONE_NEWNET | syscall.CLONE_NEWPID

var (
	nsOnce sync.Once
	nsOK   bool
)

// namespacesAllowed reports, once per process, whether a child can be
// started in namespaces: some kernels and container runtimes refuse
// unprivileged user namespaces.
func namespacesAllowed() bool {
	nsOnce.Do(func() {
		path, err := exec.LookPath("true")
		if err != nil {
			return
		}
		cmd := exec.Command(path)
		isolate(cmd)
		nsOK = cmd.Run() == nil
	})
	return nsOK
}

// isolate asks for the namespaces on cmd, mapping premise's own user and
// group into them so the worker reads the tree as it would outside.
func isolate(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	a := cmd.SysProcAttr
	a.Cloneflags |= namespaces
	a.UidMappings = []syscall.SysProcIDMap{{ContainerID: os.Getuid(), HostID: os.Getuid(), Size: 1}}
	a.GidMappings = []syscall.SysProcIDMap{{ContainerID: os.Getgid(), HostID: os.Getgid(), Size: 1}}
	a.GidMappingsEnableSetgroups = false
}

// Isolated reports whether workers start in their own network and PID
// namespaces on this machine.
func Isolated() bool { return namespacesAllowed() }

// Isolation says how a worker is isolated, for a one-line notice in
// reports when the network is not cut off.
func Isolation() string {
	if namespacesAllowed() {
		return "workers run without network, in their own PID namespace"
	}
	return "this kernel refuses unprivileged user namespaces: workers run with the network and may leave processes behind"
}

// sandbox prepares cmd for a worker: the environment from the allow-list
// with a private HOME, and the namespaces where allowed.
func sandbox(cmd *exec.Cmd, env []string, home string) {
	cmd.Env = sandboxEnv(env, home)
	if namespacesAllowed() {
		isolate(cmd)
	}
}

// limitProcs caps the worker's processes once it has started. The worker
// harnesses set their address-space limit themselves; an exec worker gets
// it here too.
func limitProcs(pid int, memory int64) {
	_ = unix.Prlimit(pid, unix.RLIMIT_NPROC, &unix.Rlimit{Cur: DefaultMaxProcs, Max: DefaultMaxProcs}, nil)
	if memory > 0 {
		_ = unix.Prlimit(pid, unix.RLIMIT_AS, &unix.Rlimit{Cur: uint64(memory), Max: uint64(memory)}, nil)
	}
}
