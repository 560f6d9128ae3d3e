package gate

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf16"
)

// Changed-line coverage in the Node worker (issue 27, following issue 24's
// Python and Go): V8's precise coverage, taken through node:inspector after
// each call, gives the ranges of the code Node ran as offsets into the
// source V8 compiled. premise, not the worker, knows which file a watched
// line is in and where its code sits in what Node runs: for a JavaScript
// file the file itself, for TypeScript (and JSX) the output esbuild wrote
// beside it, read back to the source's lines through esbuild's source
// map. So the worker is handed, for each file it runs, the pieces of code
// of the watched lines ([from, to, line] in UTF-16 units, what V8's
// offsets count) and reports a line when a piece of it lies in a range
// that ran.

// nodeWatchLimit bounds the watch handed to the worker on its command
// line (Linux refuses one argument over 128 KiB). The spans of a watch
// past it are left out file by file, the largest last: a file left out
// reports no lines, which says nothing ran, never that it did.
const nodeWatchLimit = 96 << 10

// emitted is one transpiled source premise watches: the file Node runs
// in its place, the code written there and esbuild's source map of it.
type emitted struct {
	out  string
	code []byte
	smap []byte
}

// nodeRuns are the extensions of the files Node runs as they are.
var nodeRuns = map[string]bool{".js": true, ".mjs": true, ".cjs": true}

// nodeWatched is one file the worker runs, as its watch names it: the
// watched file's name in replies (the Watch key) and the spans of its
// watched lines, flattened [from, to, line, from, to, line, ...].
type nodeWatched struct {
	File  string `json:"file"`
	Spans []int  `json:"spans"`
}

// nodeWatch is the worker's watch for w: the runtime file of each watched
// file under top (rebased to dir when the adapter copied the tree), the
// spans of its watched lines. kept are the transpiled sources' outputs
// (transpileTree), claimed the outputs transpiling wrote: a JavaScript
// file a TypeScript source replaced is not what runs, and is left
// unwatched, as is one that links outside the tree (premise does not read
// it). "{}" when nothing can be watched.
func nodeWatch(w Watch, top, dir string, kept map[string]emitted, claimed map[string]bool) string {
	type entry struct {
		runs string
		nodeWatched
	}
	var entries []entry
	for _, file := range w.files() {
		rel, err := filepath.Rel(top, file)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			continue
		}
		local := filepath.Join(dir, rel)
		var spans []int
		var runs string
		if e, ok := kept[local]; ok {
			segs, err := sourceMapLines(e.smap)
			if err != nil {
				continue
			}
			runs, spans = e.out, codeSpans(e.code, segs, true, w, file)
		} else {
			if !nodeRuns[filepath.Ext(file)] || claimed[local] || Inside(local, dir) != nil {
				continue
			}
			code, err := os.ReadFile(local)
			if err != nil {
				continue
			}
			runs, spans = local, codeSpans(code, nil, false, w, file)
		}
		if len(spans) > 0 {
			entries = append(entries, entry{runs, nodeWatched{File: file, Spans: spans}})
		}
	}
	sort.SliceStable(entries, func(i, j int) bool { return len(entries[i].Spans) < len(entries[j].Spans) })
	out := map[string]nodeWatched{}
	size := 0
	for _, e := range entries {
		b, _ := json.Marshal(e.nodeWatched)
		if size += len(b) + len(e.runs) + 8; size > nodeWatchLimit {
			break
		}
		out[e.runs] = e.nodeWatched
	}
	b, _ := json.Marshal(out)
	return string(b)
}

// lineSeg is a source map's segment as codeSpans reads it: from column
// col (UTF-16 units) of generated line gen on, the code is the source's
// line src (all 0-based).
type lineSeg struct{ gen, col, src int }

// codeSpans are the pieces of code of file's watched lines in code, the
// text Node runs: [from, to, line, ...] in UTF-16 units from the start of
// what V8 compiled (a byte-order mark is not part of it), lines 1-based.
//
// Without mapped, code is the file itself, and each line is one piece,
// without the blanks around it or the closing braces it starts with: a `}`
// belongs to the block it closes, so `} else if (x < 0) {` ran only when
// its test ran. With mapped, segs (a source map's) read code's lines back
// to the file's, and a piece is the one character where a segment starts
// (past blanks and closing braces): esbuild prints a source's lines anew
// (`typeof x === "string" ? Number(x) : x` on one line from three), and
// the text from one segment to the next may hold a neighbour's
// punctuation (the `:` before the arm not taken).
func codeSpans(code []byte, segs []lineSeg, mapped bool, w Watch, file string) []int {
	text := utf16.Encode([]rune(strings.TrimPrefix(string(code), "\uFEFF")))
	var out []int
	add := func(from, to, line int) {
		for from < to && (isJSSpace(text[from]) || text[from] == '}') {
			from++
		}
		for to > from && isJSSpace(text[to-1]) {
			to--
		}
		if from == to || !w.covers(file, line) {
			return
		}
		if mapped {
			to = from + 1
		}
		out = append(out, from, to, line)
	}
	k := 0
	for gen, start := 0, 0; start <= len(text); gen++ {
		end := start
		for end < len(text) && text[end] != '\n' {
			end++
		}
		if !mapped {
			add(start, end, gen+1)
		} else {
			for k < len(segs) && segs[k].gen < gen {
				k++
			}
			at := func(col int) int { return min(max(start+col, start), end) }
			for ; k < len(segs) && segs[k].gen == gen; k++ {
				to := end
				if k+1 < len(segs) && segs[k+1].gen == gen {
					to = at(segs[k+1].col)
				}
				add(at(segs[k].col), to, segs[k].src+1)
			}
		}
		start = end + 1
	}
	return out
}

func isJSSpace(c uint16) bool {
	switch c {
	case ' ', '\t', '\r', '\n', '\v', '\f', 0xA0, 0xFEFF, 0x2028, 0x2029:
		return true
	}
	return false
}

// sourceMapLines reads a source map of one source (esbuild's, version
// 3) into its segments, in order of generated line then column; a
// segment that names no source position is left out.
func sourceMapLines(smap []byte) ([]lineSeg, error) {
	var m struct {
		Version  int    `json:"version"`
		Mappings string `json:"mappings"`
	}
	if err := json.Unmarshal(smap, &m); err != nil {
		return nil, err
	}
	if m.Version != 3 {
		return nil, errors.New("not a version 3 source map")
	}
	var out []lineSeg
	gen, src := 0, 0
	for _, line := range strings.Split(m.Mappings, ";") {
		col := 0
		for _, seg := range strings.Split(line, ",") {
			if seg == "" {
				continue
			}
			f, err := vlqFields(seg)
			if err != nil {
				return nil, err
			}
			col += f[0]
			if len(f) < 4 {
				continue
			}
			src += f[2]
			out = append(out, lineSeg{gen: gen, col: col, src: src})
		}
		gen++
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].gen != out[j].gen {
			return out[i].gen < out[j].gen
		}
		return out[i].col < out[j].col
	})
	return out, nil
}

const vlqDigits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"

// vlqFields decodes one segment's base64 VLQ fields.
func vlqFields(s string) ([]int, error) {
	var out []int
	v, shift := 0, 0
	for i := 0; i < len(s); i++ {
		d := strings.IndexByte(vlqDigits, s[i])
		if d < 0 || shift > 30 {
			return nil, errors.New("bad source map segment " + s)
		}
		v |= (d & 31) << shift
		if d&32 != 0 {
			shift += 5
			continue
		}
		if v&1 != 0 {
			out = append(out, -(v >> 1))
		} else {
			out = append(out, v>>1)
		}
		v, shift = 0, 0
	}
	if shift != 0 {
		return nil, errors.New("bad source map segment " + s)
	}
	return out, nil
}

// watchedIn are the sources of w under top, as paths under dir, that
// transpileTree transpiles with a source map.
func watchedIn(w Watch, top, dir string) map[string]bool {
	out := map[string]bool{}
	for file := range w {
		if _, ok := transpiledExt[filepath.Ext(file)]; !ok {
			continue
		}
		if rel, err := filepath.Rel(top, file); err == nil && !strings.HasPrefix(rel, "..") {
			out[filepath.Join(dir, rel)] = true
		}
	}
	return out
}
