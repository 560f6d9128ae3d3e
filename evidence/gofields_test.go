package evidence_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/premise-dev/premise/evidence"
)

// A changed line behind a test of an exported field no method sets (`if
// p.Seq != 0`, which callers assign after the constructor) is reached by
// a receiver built with the field set, and what the method returns, a
// *bytes.Buffer, is compared by its text: m3u8's Encode ran the sequence
// line without its newline, gluing the next tag to it, and no row set the
// field, nor could a buffer's change be seen.
func TestGoFieldACallerSetsReachesTheChangedLine(t *testing.T) {
	t.Parallel()
	mod := "module example.com/pl\n\ngo 1.21\n"
	src := func(end string) string {
		return "package pl\n\nimport (\n\t\"bytes\"\n\t\"strconv\"\n)\n\n" +
			"// List is a playlist.\ntype List struct {\n\tSeq   uint64\n\tTitle string\n\titems []string\n}\n\n" +
			"// New is an empty playlist.\nfunc New() *List { return &List{} }\n\n" +
			"// Add appends an item.\nfunc (l *List) Add(s string) { l.items = append(l.items, s) }\n\n" +
			"// Encode writes the playlist.\nfunc (l *List) Encode() *bytes.Buffer {\n\tvar b bytes.Buffer\n\tb.WriteString(\"#LIST\\n\")\n" +
			"\tif l.Seq != 0 {\n\t\tb.WriteString(\"#SEQ:\" + strconv.FormatUint(l.Seq, 10))\n" + end + "\t}\n" +
			"\tfor _, s := range l.items {\n\t\tb.WriteString(s + \"\\n\")\n\t}\n\treturn &b\n}\n"
	}
	base := src("\t\tb.WriteString(\"\\n\")\n")
	head := src("")
	rep := runCommits(t, map[string]string{"go.mod": mod, "pl.go": base}, map[string]string{"pl.go": head}, nil)
	if !hasChange(rep, "example.com/pl.List.Encode", func(c evidence.Change) bool {
		return strings.Contains(c.Input, ".Seq = ") && strings.Contains(c.Head, "#SEQ:")
	}) {
		t.Errorf("Encode glues the next line to #SEQ now, yet no row with Seq set showed it: %+v; symbols %+v", append(rep.Changes, rep.Unexplained...), rep.Symbols)
	}
}

// A method that sorts a list field of its receiver is also called on a
// receiver whose list is long and full of ties: sort.Slice in place of
// sort.SliceStable reorders elements that tie on the key only past the
// dozen an insertion sort takes, which no other receiver reaches
// (go-astisub's Subtitles.Order).
func TestGoSortOfATiedListIsTried(t *testing.T) {
	t.Parallel()
	mod := "module example.com/subs\n\ngo 1.21\n"
	src := func(sortFunc string) string {
		return "package subs\n\nimport \"sort\"\n\n" +
			"// Item is one subtitle.\ntype Item struct {\n\tStart int\n\tIndex int\n\tText  string\n}\n\n" +
			"// Subtitles are items in order.\ntype Subtitles struct{ Items []*Item }\n\n" +
			"// New is no subtitles.\nfunc New() *Subtitles { return &Subtitles{} }\n\n" +
			"// Add appends an item.\nfunc (s *Subtitles) Add(start int, text string) {\n\ts.Items = append(s.Items, &Item{Start: start, Text: text})\n}\n\n" +
			"// Order sorts the items by their start.\nfunc (s *Subtitles) Order() {\n\tsort." + sortFunc +
			"(s.Items, func(i, j int) bool { return s.Items[i].Start < s.Items[j].Start })\n}\n"
	}
	rep := runCommits(t, map[string]string{"go.mod": mod, "subs.go": src("SliceStable")}, map[string]string{"subs.go": src("Slice")}, nil)
	if !hasChange(rep, "example.com/subs.Subtitles.Order", func(c evidence.Change) bool { return strings.Contains(c.Input, ".Items = [") }) {
		t.Errorf("Order no longer keeps tied items in order, yet no row with a long tied list showed it: %+v; symbols %+v", append(rep.Changes, rep.Unexplained...), rep.Symbols)
	}
}

// TestGoReceiverFieldTheMethodReadsIsBuilt: a receiver is built from at
// most twelve of its struct's fields; the one the method reads comes
// first (gofeed's Feed.Less reads Items, its 21st field, whose items may
// lack a parsed date: the patch dereferences it).
func TestGoReceiverFieldTheMethodReadsIsBuilt(t *testing.T) {
	t.Parallel()
	mod := "module example.com/feed\n\ngo 1.21\n"
	var fields strings.Builder
	for i := range 14 {
		fmt.Fprintf(&fields, "\tF%d string\n", i)
	}
	src := func(less string) string {
		return "package feed\n\n// Item is one entry.\ntype Item struct {\n\tTitle string\n\tDate  *int\n}\n\n" +
			"// Feed is a list of entries.\ntype Feed struct {\n" + fields.String() + "\tItems []*Item\n}\n\n" +
			"// Less orders entries by date, undated first.\nfunc (f Feed) Less(i, k int) bool {\n" + less + "}\n"
	}
	base := src("\ta, b := f.Items[i].Date, f.Items[k].Date\n\tif a == nil || b == nil {\n\t\treturn a == nil && b != nil\n\t}\n\treturn *a < *b\n")
	head := src("\treturn *f.Items[i].Date < *f.Items[k].Date\n")
	rep := runCommits(t, map[string]string{"go.mod": mod, "feed.go": base}, map[string]string{"feed.go": head}, nil)
	if !hasChange(rep, "example.com/feed.Feed.Less", func(c evidence.Change) bool { return strings.Contains(c.Head, "panic") }) {
		t.Errorf("Less dereferences an undated entry now, yet no change shows it: %+v; symbols %+v", append(rep.Changes, rep.Unexplained...), rep.Symbols)
	}
}
