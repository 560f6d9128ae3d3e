package annotate

import (
	"bytes"
	"testing"
)

func TestWrite(t *testing.T) {
	cases := []struct {
		name, level, file string
		line              int
		title, msg, want  string
		reason            string
	}{
		{"at a line", Error, "calc.py", 4, "premise A001", "clamp(2): base 1.5, head 2", "::error file=calc.py,line=4,title=premise A001::clamp(2): base 1.5, head 2\n", ""},
		{"escaped", Warning, "a,b:c.py", 0, "", "50% of\nrows", "::warning file=a%2Cb%3Ac.py::50%25 of%0Arows\n", "the runner splits properties at , and : and ends a command at a newline"},
		{"on the run", Notice, "", 9, "", "done", "::notice::done\n", "a line without a file means nothing"},
	}
	for _, c := range cases {
		var b bytes.Buffer
		if err := Write(&b, c.level, c.file, c.line, c.title, c.msg); err != nil {
			t.Fatal(err)
		}
		if b.String() != c.want {
			t.Errorf("%s: got %q, want %q %s", c.name, b.String(), c.want, c.reason)
		}
	}
}
