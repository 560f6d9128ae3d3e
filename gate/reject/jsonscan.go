package reject

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
)

// keyPos is one object key met while scanning a JSON document: the path of
// the object that holds it ("", "entries[1]", "entries[1].must"), the key,
// and the 1-based line it is on.
type keyPos struct {
	Path string
	Key  string
	Line int
}

// SyntaxError is a JSON document that premise refuses: invalid JSON, a
// repeated key, or data after the value. Line is 1-based.
type SyntaxError struct {
	Line int
	Msg  string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

// scanFrame is one open container while scanning.
type scanFrame struct {
	object bool
	path   string
	index  int             // index of the next element (arrays)
	seen   map[string]bool // keys so far (objects)
	key    bool            // the next token of an object is a key
}

// child returns the path of the value that comes next in f.
func (f *scanFrame) child(key string) string {
	switch {
	case f == nil:
		return ""
	case f.object && f.path == "":
		return key
	case f.object:
		return f.path + "." + key
	default:
		return f.path + "[" + strconv.Itoa(f.index) + "]"
	}
}

// done records that f received one complete value.
func (f *scanFrame) done() {
	if f == nil {
		return
	}
	if f.object {
		f.key = true
	} else {
		f.index++
	}
}

// scanJSON checks that data is exactly one JSON value whose objects never
// repeat a key, and returns every key with its path and line. encoding/json
// silently keeps the last of two equal keys; a fixture or lockfile that says
// one thing to premise and another to a Python reader must fail closed
// (issue 6, item 4).
func scanJSON(data []byte) ([]keyPos, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	// Offsets only grow while scanning, so lines are counted incrementally:
	// counting from the start every time is quadratic on a big lockfile.
	var lastOff int64
	lastLine := 1
	line := func(off int64) int {
		off = min(max(off, 0), int64(len(data)))
		if off < lastOff {
			return 1 + bytes.Count(data[:off], []byte{'\n'})
		}
		lastLine += bytes.Count(data[lastOff:off], []byte{'\n'})
		lastOff = off
		return lastLine
	}
	var (
		keys    []keyPos
		stack   []*scanFrame
		lastKey string
	)
	top := func() *scanFrame {
		if len(stack) == 0 {
			return nil
		}
		return stack[len(stack)-1]
	}
	for {
		tok, err := dec.Token()
		if err != nil {
			var se *json.SyntaxError
			switch {
			case errors.As(err, &se):
				return nil, &SyntaxError{Line: line(se.Offset), Msg: se.Error()}
			case err == io.EOF || err == io.ErrUnexpectedEOF:
				return nil, &SyntaxError{Line: line(int64(len(data))), Msg: "unexpected end of JSON"}
			default:
				return nil, &SyntaxError{Line: line(dec.InputOffset()), Msg: err.Error()}
			}
		}
		f := top()
		if f != nil && f.object && f.key {
			if tok == json.Delim('}') {
				stack = stack[:len(stack)-1]
				top().done()
			} else {
				k, _ := tok.(string) // the decoder only returns a string here
				if f.seen[k] {
					return nil, &SyntaxError{Line: line(dec.InputOffset()), Msg: fmt.Sprintf("repeated key %q", k)}
				}
				f.seen[k] = true
				f.key = false
				lastKey = k
				keys = append(keys, keyPos{Path: f.path, Key: k, Line: line(dec.InputOffset())})
				continue
			}
		} else {
			switch tok {
			case json.Delim('{'):
				stack = append(stack, &scanFrame{object: true, path: f.child(lastKey), seen: map[string]bool{}, key: true})
			case json.Delim('['):
				stack = append(stack, &scanFrame{path: f.child(lastKey)})
			case json.Delim(']'):
				stack = stack[:len(stack)-1]
				top().done()
			default:
				f.done()
			}
		}
		if len(stack) == 0 {
			// One complete top-level value: anything after it is an error.
			if _, err := dec.Token(); err != io.EOF {
				return nil, &SyntaxError{Line: line(dec.InputOffset()), Msg: "data after the JSON value"}
			}
			return keys, nil
		}
	}
}

// lockErrorf returns the constructor of *LockError for file name.
func lockErrorf(name string) func(line int, format string, args ...any) error {
	return func(line int, format string, args ...any) error {
		return &LockError{File: name, Line: line, Msg: fmt.Sprintf(format, args...)}
	}
}

// scanFile scans the JSON of file name (scanJSON); a syntax error is a
// *LockError naming its line.
func scanFile(name string, data []byte) ([]keyPos, error) {
	keys, err := scanJSON(data)
	if err != nil {
		var se *SyntaxError
		if errors.As(err, &se) {
			return nil, lockErrorf(name)(se.Line, "%s", se.Msg)
		}
		return nil, lockErrorf(name)(0, "%v", err)
	}
	return keys, nil
}
