package filelock

import (
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestExcludes: holders of the lock never overlap. Each holder reads a
// counter, pauses and writes it plus one; any overlap loses an increment.
func TestExcludes(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "counter")
	if err := os.WriteFile(path, []byte("0"), 0o644); err != nil {
		t.Fatal(err)
	}
	const n = 20
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			l, err := Acquire(context.Background(), path, 10*time.Second)
			if err != nil {
				errs[i] = err
				return
			}
			defer l.Unlock()
			b, _ := os.ReadFile(path)
			v, _ := strconv.Atoi(string(b))
			time.Sleep(time.Millisecond)
			errs[i] = os.WriteFile(path, []byte(strconv.Itoa(v+1)), 0o644)
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != strconv.Itoa(n) {
		t.Errorf("counter = %s, want %d: two holders overlapped", b, n)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("directory holds %d entries, want the lock file removed", len(ents))
	}
}

func TestTimeoutNamesTheFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "assumptions.yaml")
	l, err := Acquire(context.Background(), path, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Unlock()
	start := time.Now()
	_, err = Acquire(context.Background(), path, 100*time.Millisecond)
	var te *TimeoutError
	if !errors.As(err, &te) || te.File != path || !strings.HasPrefix(err.Error(), path+": ") {
		t.Fatalf("err = %v, want a *TimeoutError naming %s", err, path)
	}
	if d := time.Since(start); d < 100*time.Millisecond || d > 2*time.Second {
		t.Errorf("waited %v, want about 100ms", d)
	}
	if !strings.Contains(err.Error(), ".assumptions.yaml.lock") {
		t.Errorf("err = %v, want the lock file named", err)
	}
}

// TestLinksShareALock: a link and its target are one file, so one lock.
func TestLinksShareALock(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "real.yaml")
	os.WriteFile(target, []byte("x"), 0o644)
	link := filepath.Join(t.TempDir(), "assumptions.yaml")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	l, err := Acquire(context.Background(), target, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Unlock()
	if _, err := Acquire(context.Background(), link, 50*time.Millisecond); err == nil {
		t.Fatal("the link's lock was free while its target's was held")
	}
	dangling := filepath.Join(dir, "dangling.yaml")
	os.Symlink(filepath.Join(dir, "nothing", "x.yaml"), dangling)
	if _, err := Acquire(context.Background(), dangling, 0); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("err = %v, want a link to nothing refused", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "nothing")); err == nil {
		t.Errorf("locking a link to nothing made its directory")
	}
}

func TestCancelled(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	l, _ := Acquire(context.Background(), path, 0)
	defer l.Unlock()
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(20*time.Millisecond, cancel)
	if _, err := Acquire(ctx, path, 10*time.Second); !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}

// TestHolderKilled: a process killed while holding the lock (SIGKILL, no
// Unlock) leaves its lock file behind but not its lock: the next premise
// gets it at once.
func TestHolderKilled(t *testing.T) {
	if p := os.Getenv("FILELOCK_HOLD"); p != "" {
		if _, err := Acquire(context.Background(), p, 0); err != nil {
			os.Exit(2)
		}
		os.Stdout.WriteString("held\n")
		time.Sleep(time.Minute)
		os.Exit(0)
	}
	path := filepath.Join(t.TempDir(), "assumptions.yaml")
	cmd := exec.Command(os.Args[0], "-test.run=^TestHolderKilled$")
	cmd.Env = append(os.Environ(), "FILELOCK_HOLD="+path)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 5)
	if _, err := io.ReadFull(out, buf); err != nil || string(buf) != "held\n" {
		cmd.Process.Kill()
		t.Fatalf("helper: %q %v", buf, err)
	}
	if _, err := Acquire(context.Background(), path, 50*time.Millisecond); err == nil {
		t.Error("the lock was free while another process held it")
	}
	cmd.Process.Kill()
	cmd.Wait()
	lp, _ := Path(path)
	if _, err := os.Stat(lp); err != nil {
		t.Fatalf("the killed holder's lock file is gone (%v); this test wants it left behind", err)
	}
	l, err := Acquire(context.Background(), path, 2*time.Second)
	if err != nil {
		t.Fatalf("after the holder was killed: %v", err)
	}
	l.Unlock()
}
