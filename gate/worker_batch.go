package gate

import (
	"os"
	"sync/atomic"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Batched replies. The Python worker holds its replies back and sends them
// in one write whenever it runs out of requests (harness/python_worker.py,
// _Sender), instead of one write, and one wake-up of premise, per reply:
// the plain way, which a worker without a page still takes (PAGE_FD -1).
// Holding replies back loses which call a hang or a crash belongs to, so
// the worker records in a shared page which request it is running and
// since when; proc.await reads it to blame the running call, with its own
// timeout from its own start (TestPythonAdapterBatchBlame).
//
// It earns its place (issue 12): replying at once costs
// BenchmarkGatePython1000 (go test ./gate -run '^$' -bench GatePython1000
// -benchtime 10x) a third more, 181 ms -> 247 ms an op (medians of five
// interleaved runs), and bench/gate_vs_pytest.sh 1000 12-16% more CPU
// (3-7% more wall time).

// newPage makes the shared page a worker records its progress in: a
// memory file, mapped read-only here, passed to the worker as fd 5.
func newPage() (*os.File, []byte, error) {
	var f *os.File
	if fd, err := unix.MemfdCreate("premise-progress", unix.MFD_CLOEXEC); err == nil {
		f = os.NewFile(uintptr(fd), "premise-progress")
	} else {
		// No memfd (an old kernel, a sandbox): an unlinked temporary file.
		if f, err = os.CreateTemp("", "premise-progress-"); err != nil {
			return nil, nil, err
		}
		os.Remove(f.Name())
	}
	fd := int(f.Fd())
	if err := f.Truncate(int64(os.Getpagesize())); err != nil {
		f.Close()
		return nil, nil, err
	}
	mem, err := unix.Mmap(fd, 0, os.Getpagesize(), unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, mem, nil
}

// progress reads the worker's progress page: the number of the request it
// is running (or ran last) and how long ago that call started. known is
// false when the worker keeps no page or has run nothing.
func (p *proc) progress() (running int64, since time.Duration, known bool) {
	if p.page == nil {
		return 0, 0, false
	}
	num := (*int64)(unsafe.Pointer(&p.page[0]))
	start := (*int64)(unsafe.Pointer(&p.page[8]))
	for range 3 {
		// The worker writes the start, then the number: a number read
		// twice the same has its own start between.
		n := atomic.LoadInt64(num)
		t := atomic.LoadInt64(start)
		if atomic.LoadInt64(num) != n {
			continue
		}
		if n <= 0 {
			return 0, 0, false
		}
		var now unix.Timespec
		if unix.ClockGettime(unix.CLOCK_MONOTONIC, &now) != nil {
			return 0, 0, false
		}
		return n, time.Duration(now.Nano() - t), true
	}
	return 0, 0, false
}
