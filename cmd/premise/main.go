// Command premise gates code patches written by coding agents: it names what a
// patch silently assumes, turns accepted assumptions into partition rows, and
// runs them outside the agent's reach.
package main

import (
	"os"
	"runtime/debug"
)

func main() {
	tuneGC()
	os.Exit(Main(os.Args[1:]))
}

// tuneGC trades memory for time in a short-lived command: a gate judges
// thousands of small replies, and with Go's default GOGC=100 the collector
// takes a tenth of its CPU on a two-core machine. The soft limit brings the
// collector back before a large run's heap grows past 1 GiB. GOGC and
// GOMEMLIMIT in the environment win.
func tuneGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(1 << 30)
	}
}
