// Command premise gates code patches written by coding agents: it names what a
// patch silently assumes, turns accepted assumptions into partition rows, and
// runs them outside the agent's reach.
package main

import (
	"os"

	"github.com/premise-dev/premise/gate"
)

func main() {
	code := Main(os.Args[1:])
	gate.ForgetHarnesses()
	os.Exit(code)
}
