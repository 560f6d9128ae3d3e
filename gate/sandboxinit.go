package gate

import (
	"encoding/json"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"golang.org/x/sys/unix"
)

// initEnv carries the sandbox init's configuration from premise to the copy
// of itself it starts as a worker's init (sandboxInit); the init removes it
// before the worker starts.
const initEnv = "PREMISE_SANDBOX_INIT"

// initConfig is what the init does before it starts the worker.
type initConfig struct {
	// Seal makes every mount read-only but RW (and /dev), where the
	// init runs in its own mount namespace.
	Seal bool     `json:"seal"`
	RW   []string `json:"rw"`
	// Hide are directories the worker finds empty and files it reads as
	// empty: the git directories and configuration of the repository its
	// copy was written from, the user's credentials (hidden.go).
	Hide []string `json:"hide"`
	// FDs are the descriptors the worker inherits at the same numbers,
	// beyond 0, 1 and 2.
	FDs []int `json:"fds"`
	// NProc and AS are the worker's RLIMIT_NPROC and RLIMIT_AS (0: none).
	NProc uint64 `json:"nproc"`
	AS    uint64 `json:"as"`
}

func init() {
	raw, ok := os.LookupEnv(initEnv)
	if !ok {
		return
	}
	os.Unsetenv(initEnv)
	os.Exit(sandboxInit(raw, os.Args[1:]))
}

// sandboxInit is the init of a worker's PID namespace (issue 26, item 3): a
// worker that were PID 1 itself would ignore its own fatal signals (a head
// that kills itself on the differing input would carry on), and orphans
// would go unreaped. It seals the mounts, starts argv as PID 2, forwards
// the signals premise sends, reaps every orphan, and exits with the
// worker's status: its exit code, or 128 plus the signal that killed it.
func sandboxInit(raw string, argv []string) int {
	var c initConfig
	if err := json.Unmarshal([]byte(raw), &c); err != nil || len(argv) == 0 {
		fmt.Fprintln(os.Stderr, "sandbox init: bad configuration")
		return 125
	}
	if c.Seal {
		if err := sealMounts(c.RW, c.Hide); err != nil {
			fmt.Fprintf(os.Stderr, "sandbox init: %v\n", err)
			return 125
		}
	}
	loopbackUp()
	files := []uintptr{0, 1, 2}
	for _, fd := range c.FDs {
		for len(files) <= fd {
			files = append(files, ^uintptr(0)) // closed in the worker
		}
		files[fd] = uintptr(fd)
	}
	sigs := make(chan os.Signal, 8)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP, syscall.SIGQUIT, syscall.SIGUSR1, syscall.SIGUSR2)
	wd, _ := os.Getwd()
	pid, err := syscall.ForkExec(argv[0], argv, &syscall.ProcAttr{
		Dir: wd, Env: os.Environ(), Files: files,
		Sys: &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL},
	})
	if err != nil {
		fmt.Fprintf(os.Stderr, "sandbox init: start %s: %v\n", argv[0], err)
		return 127
	}
	if c.NProc > 0 {
		_ = unix.Prlimit(pid, unix.RLIMIT_NPROC, &unix.Rlimit{Cur: c.NProc, Max: c.NProc}, nil)
	}
	if c.AS > 0 {
		_ = unix.Prlimit(pid, unix.RLIMIT_AS, &unix.Rlimit{Cur: c.AS, Max: c.AS}, nil)
	}
	go func() {
		for s := range sigs {
			_ = syscall.Kill(pid, s.(syscall.Signal))
		}
	}()
	for {
		var ws syscall.WaitStatus
		wpid, err := syscall.Wait4(-1, &ws, 0, nil)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return 125
		}
		if wpid != pid {
			continue // an orphan reparented to the init
		}
		switch {
		case ws.Exited():
			return ws.ExitStatus()
		case ws.Signaled():
			return 128 + int(ws.Signal())
		}
	}
}

// sealMounts makes the init's mount namespace read-only but for rw (the
// private copy and the scratch directory), empties the directories of
// hide, gives it a /dev/shm and a /proc of its own (its PID namespace's).
// Nothing propagates back to premise's mounts.
func sealMounts(rw, hide []string) error {
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("private mounts: %w", err)
	}
	for _, d := range rw {
		if err := unix.Mount(d, d, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
			return fmt.Errorf("bind %s: %w", d, err)
		}
	}
	for _, d := range hide {
		st, err := os.Stat(d)
		switch {
		case err != nil:
		case st.IsDir():
			if err := unix.Mount("tmpfs", d, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, "mode=0555,size=4k"); err != nil {
				return fmt.Errorf("hide %s: %w", d, err)
			}
		default: // a file, a socket: read as empty, connected to by none
			if err := unix.Mount("/dev/null", d, "", unix.MS_BIND, ""); err != nil {
				return fmt.Errorf("hide %s: %w", d, err)
			}
		}
	}
	if err := unix.MountSetattr(-1, "/", unix.AT_RECURSIVE, &unix.MountAttr{Attr_set: unix.MOUNT_ATTR_RDONLY}); err != nil {
		return fmt.Errorf("read-only mounts: %w", err)
	}
	for _, d := range rw {
		if err := unix.MountSetattr(-1, d, unix.AT_RECURSIVE, &unix.MountAttr{Attr_clr: unix.MOUNT_ATTR_RDONLY}); err != nil {
			return fmt.Errorf("writable %s: %w", d, err)
		}
	}
	// A device is written whatever its mount says (/dev/null); /dev/shm
	// is the machine's, writable by every user, where a subject's files
	// would outlive the gate and reach other workers: the worker gets an
	// empty one of its own (Python's multiprocessing needs one).
	if st, err := os.Stat("/dev/shm"); err == nil && st.IsDir() {
		if err := unix.Mount("tmpfs", "/dev/shm", "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "mode=1777,size=64m"); err != nil {
			return fmt.Errorf("private /dev/shm: %w", err)
		}
	}
	// This namespace's own processes only, not the host's.
	_ = unix.Mount("proc", "/proc", "proc", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, "")
	return nil
}

// loopbackUp brings up the loopback interface of the init's own network
// namespace, as a machine's is: a test that serves on 127.0.0.1 and
// calls itself (Go's httptest) runs, where with it down the test fails
// on both sides and, panicking, ends the rest of its package's tests.
// The namespace holds nothing else, so the subject reaches only itself;
// a failure leaves the box as it was, without loopback.
func loopbackUp() {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return
	}
	defer unix.Close(fd)
	ifr, err := unix.NewIfreq("lo")
	if err != nil || unix.IoctlIfreq(fd, unix.SIOCGIFFLAGS, ifr) != nil {
		return
	}
	ifr.SetUint16(ifr.Uint16() | unix.IFF_UP | unix.IFF_RUNNING)
	_ = unix.IoctlIfreq(fd, unix.SIOCSIFFLAGS, ifr)
}
