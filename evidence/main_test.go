package evidence_test

import (
	"flag"
	"os"
	"runtime"
	"strconv"
	"testing"
)

// minParallel is the fewest end-to-end tests run at once when go test is
// not told (-parallel). They spend most of their time waiting, not
// computing: on worker and harness subprocesses, and on the row, function
// and call clocks the budget tests run out on purpose (a sleeping or
// hanging function holds its test for seconds at little CPU). go test's
// default of GOMAXPROCS, two on CI's machine, leaves a core idle while
// two such tests wait. Each test times only its own run, so the clocks it
// asserts on are as they were.
const minParallel = 4

func TestMain(m *testing.M) {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set && runtime.GOMAXPROCS(0) < minParallel {
		if err := flag.Set("test.parallel", strconv.Itoa(minParallel)); err != nil {
			panic(err)
		}
	}
	os.Exit(m.Run())
}
