package gate

// A returned value shown from the bytes the worker sent, beside short
// (runner.go), which encodes the decoded value again and shows every
// other one.
//
// Issue 28: every row's verdict says what it returned, and encoding each
// decoded value back to JSON for that was a tenth of the gate's own CPU on
// BenchmarkGateFile. FuzzShortValue holds the two equal.

// shortValue is short(r.Value): the worker's own bytes when json.Marshal
// would write exactly them (plainJSON), else the value encoded again.
func (r Reply) shortValue() string {
	if plainJSON(r.Raw) {
		return oneLine(string(r.Raw), 120)
	}
	return short(r.Value)
}

// plainJSON reports whether raw, one JSON value, is written as json.Marshal
// writes what it decodes to: no spaces, no object (whose keys Marshal
// sorts), no escape, none of the characters Marshal escapes, only ASCII.
func plainJSON(raw []byte) bool {
	if len(raw) == 0 {
		return false
	}
	for _, c := range raw {
		if c <= ' ' || c >= 0x7f || c == '{' || c == '\\' || c == '<' || c == '>' || c == '&' {
			return false
		}
	}
	return true
}
