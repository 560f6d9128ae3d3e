package junit

import (
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

type xmlResult struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

// msg is the result's one-line account: its message attribute, else the
// text's last line.
func (r xmlResult) msg() string {
	m := strings.TrimSpace(r.Message)
	if m == "" {
		m = strings.TrimSpace(r.Text)
		if i := strings.LastIndexByte(m, '\n'); i >= 0 {
			m = strings.TrimSpace(m[i+1:])
		}
	}
	if m == "" {
		m = strings.TrimSpace(r.Type)
	}
	return clip(m)
}

type xmlCase struct {
	Name      string      `xml:"name,attr"`
	Classname string      `xml:"classname,attr"`
	File      string      `xml:"file,attr"`
	Failures  []xmlResult `xml:"failure"`
	Errors    []xmlResult `xml:"error"`
	Skipped   []xmlResult `xml:"skipped"`
	// Maven Surefire's reruns: flaky* precede a pass, rerun* follow a
	// failure.
	FlakyFailures []xmlResult `xml:"flakyFailure"`
	FlakyErrors   []xmlResult `xml:"flakyError"`
	RerunFailures []xmlResult `xml:"rerunFailure"`
	RerunErrors   []xmlResult `xml:"rerunError"`
}

// attempts lists the case's attempts in the order they ran.
func (c xmlCase) attempts() []Attempt {
	var out []Attempt
	for _, r := range c.FlakyFailures {
		out = append(out, Attempt{Outcome: Failed, Message: r.msg()})
	}
	for _, r := range c.FlakyErrors {
		out = append(out, Attempt{Outcome: Errored, Message: r.msg()})
	}
	switch {
	case len(c.Failures) > 0:
		out = append(out, Attempt{Outcome: Failed, Message: c.Failures[0].msg()})
	case len(c.Errors) > 0:
		out = append(out, Attempt{Outcome: Errored, Message: c.Errors[0].msg()})
	case len(c.Skipped) > 0:
		out = append(out, Attempt{Outcome: Skipped, Message: c.Skipped[0].msg()})
	default:
		out = append(out, Attempt{Outcome: Passed})
	}
	for _, r := range c.RerunFailures {
		out = append(out, Attempt{Outcome: Failed, Message: r.msg()})
	}
	for _, r := range c.RerunErrors {
		out = append(out, Attempt{Outcome: Errored, Message: r.msg()})
	}
	return out
}

// parseXML reads JUnit XML: a <testsuites> or <testsuite> root, suites
// nested to any depth, testcases anywhere beneath.
func parseXML(name string, r io.Reader, o Options) (*Report, error) {
	dec := xml.NewDecoder(r)
	dec.CharsetReader = charsetReader
	var suites []string // the enclosing suites' names, outermost first
	var cs cases
	rooted := false
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, xmlError(name, dec, err, "")
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if !rooted {
				if t.Name.Local != "testsuites" && t.Name.Local != "testsuite" {
					return nil, &Error{File: name, Line: line(dec), Msg: fmt.Sprintf("root element is <%s>; want <testsuites> or <testsuite>: is this a JUnit file?", t.Name.Local)}
				}
				rooted = true
			}
			switch t.Name.Local {
			case "testsuite":
				suites = append(suites, attr(t, "name"))
			case "testcase":
				var c xmlCase
				at := line(dec)
				if err := dec.DecodeElement(&c, &t); err != nil {
					return nil, xmlError(name, dec, err, fmt.Sprintf(" inside <testcase name=%q> (line %d)", c.Name, at))
				}
				suite := ""
				if len(suites) > 0 {
					suite = suites[len(suites)-1]
				}
				if c.Name == "" && c.Classname == "" {
					return nil, &Error{File: name, Line: at, Msg: "<testcase> has neither name nor classname"}
				}
				cs.add(nodeID(suite, c, o), c.Name, c.attempts()...)
			}
		case xml.EndElement:
			if t.Name.Local == "testsuite" && len(suites) > 0 {
				suites = suites[:len(suites)-1]
			}
		}
	}
	if !rooted {
		return nil, &Error{File: name, Msg: "no XML elements: want a <testsuites> or <testsuite> root"}
	}
	return &Report{Format: "junit", Cases: nonNil(cs.list)}, nil
}

func nonNil(cs []Case) []Case {
	if cs == nil {
		return []Case{}
	}
	return cs
}

func attr(t xml.StartElement, name string) string {
	for _, a := range t.Attr {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

func line(dec *xml.Decoder) int {
	l, _ := dec.InputPos()
	return l
}

// xmlError turns a decoder error into one line naming the file: a file
// that ends early is called truncated, so the user looks at the runner
// that was killed rather than at premise.
func xmlError(name string, dec *xml.Decoder, err error, where string) error {
	if errors.Is(err, errTooLarge) {
		return err
	}
	var se *xml.SyntaxError
	if errors.As(err, &se) {
		if errors.Is(err, io.ErrUnexpectedEOF) || strings.Contains(se.Msg, "unexpected EOF") {
			return &Error{File: name, Line: se.Line, Msg: "truncated: the XML ends before its elements close" + where + "; did the test run finish writing it?"}
		}
		return &Error{File: name, Line: se.Line, Msg: "not well-formed XML: " + se.Msg + where}
	}
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return &Error{File: name, Line: line(dec), Msg: "truncated: the XML ends before its elements close" + where + "; did the test run finish writing it?"}
	}
	return &Error{File: name, Line: line(dec), Msg: strings.Join(strings.Fields(err.Error()+where), " ")}
}

// charsetReader accepts the encodings a runner writes besides UTF-8:
// US-ASCII is UTF-8, ISO-8859-1 maps byte for byte onto the first 256
// code points.
func charsetReader(charset string, in io.Reader) (io.Reader, error) {
	switch strings.ToLower(charset) {
	case "utf-8", "utf8", "us-ascii", "ascii":
		return in, nil
	case "iso-8859-1", "latin1", "latin-1":
		return &latin1{r: in}, nil
	}
	return nil, fmt.Errorf("encoding %q is not supported: write the file as UTF-8", charset)
}

type latin1 struct {
	r   io.Reader
	buf []byte
}

func (l *latin1) Read(p []byte) (int, error) {
	if len(l.buf) == 0 {
		raw := make([]byte, (len(p)+1)/2)
		n, err := l.r.Read(raw)
		for _, b := range raw[:n] {
			l.buf = append(l.buf, string(rune(b))...)
		}
		if n == 0 {
			return 0, err
		}
	}
	n := copy(p, l.buf)
	l.buf = l.buf[n:]
	return n, nil
}

// nodeID names a testcase the way its runner's users name it.
func nodeID(suite string, c xmlCase, o Options) string {
	cls := c.Classname
	if isPytest(suite, c) {
		return pytestID(cls, c.Name, c.File, o.Root)
	}
	if cls == "" {
		// gotestsum writes a package's own failure as classname=""
		// name="TestMain" under the package's suite.
		cls = suite
	}
	if cls == "" {
		return c.Name
	}
	if c.Name == "" {
		return cls
	}
	return cls + "::" + c.Name
}

// isPytest tells pytest's testcases: its suite is named "pytest" unless
// junit_suite_name says otherwise, and junit_family=xunit1 writes the
// file.
func isPytest(suite string, c xmlCase) bool {
	return suite == "pytest" || strings.HasSuffix(c.File, ".py")
}

// pytestID rebuilds pytest's node id from the dotted classname pytest
// writes: classname "tests.test_x.TestK", name "test_y[1]" is
// "tests/test_x.py::TestK::test_y[1]". A collection error has an empty
// classname and the file's path as its name.
func pytestID(classname, name, file, root string) string {
	if classname == "" {
		return name
	}
	segs := strings.Split(classname, ".")
	k := -1
	if file != "" {
		mod := strings.Split(strings.TrimSuffix(filepath.ToSlash(file), ".py"), "/")
		if len(mod) <= len(segs) && strings.Join(segs[:len(mod)], ".") == strings.Join(mod, ".") {
			k = len(mod)
		}
	}
	if k < 0 && root != "" {
		for i := len(segs); i >= 1; i-- {
			if fi, err := os.Stat(filepath.Join(root, filepath.Join(segs[:i]...)+".py")); err == nil && !fi.IsDir() {
				k = i
				break
			}
		}
	}
	if k < 0 {
		k = len(segs)
		for i := 1; i < len(segs); i++ {
			if strings.HasPrefix(segs[i], "Test") {
				k = i
				break
			}
		}
	}
	parts := append([]string{strings.Join(segs[:k], "/") + ".py"}, segs[k:]...)
	if name != "" {
		parts = append(parts, name)
	}
	return strings.Join(parts, "::")
}
