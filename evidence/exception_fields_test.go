package evidence_test

import (
	"strings"
	"testing"

	"github.com/premise-dev/premise/evidence"
)

// An exception an __init__ builds is compared by its attributes too, not
// by its repr, which shows only its args: tornado's HTTPError doubled
// every % of a log_message given without args, and the object built was
// HTTPError() on both sides.
func TestExceptionBuiltIsComparedByItsAttributes(t *testing.T) {
	t.Parallel()
	src := func(cond string) string {
		return "class HTTPError(Exception):\n    def __init__(self, status_code=500, log_message=None, *args):\n" +
			"        self.status_code = status_code\n        self.log_message = log_message\n        self.args = args\n" +
			"        if " + cond + ":\n            self.log_message = log_message.replace('%', '%%')\n"
	}
	rep := runCommits(t, map[string]string{"web.py": src("log_message and args")}, map[string]string{"web.py": src("log_message")}, nil)
	if !hasChange(rep, "web.HTTPError.__init__", func(c evidence.Change) bool { return strings.Contains(c.Head, "%%") }) {
		t.Errorf("a message without args has its %% doubled now, yet no change shows it: changes %+v, symbols %+v", append(rep.Changes, rep.Unexplained...), rep.Symbols)
	}
}
