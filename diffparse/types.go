package diffparse

// Result is everything downstream stages know about a patch.
type Result struct {
	Base      string `json:"base"`       // the base revision's commit sha
	Head      string `json:"head"`       // the head revision's commit sha
	MergeBase string `json:"merge_base"` // the merge-base the diff was taken against
	Files     []File `json:"files"`
}

// File is one file of the diff.
type File struct {
	Path       string   `json:"path"`     // head-side path ("" never: a deleted file keeps its old path)
	OldPath    string   `json:"old_path"` // base-side path
	Status     string   `json:"status"`   // added, deleted, modified, renamed, copied
	Language   string   `json:"language"` // go, python, javascript, typescript, or "" for others
	Binary     bool     `json:"binary"`
	Added      int      `json:"added"`
	Deleted    int      `json:"deleted"`
	Symbols    []Symbol `json:"symbols"`
	ParseError string   `json:"parse_error,omitempty"`
	Excluded   string   `json:"excluded,omitempty"` // why no symbols were taken: generated, vendored, ...
	OldMode    string   `json:"old_mode,omitempty"` // git file modes, set when the mode changed or the file was added or deleted
	NewMode    string   `json:"new_mode,omitempty"`
	Submodule  bool     `json:"submodule,omitempty"` // a submodule pointer (mode 160000): no text, no symbols

	// Hunks are the file's hunks, in order.
	Hunks []Hunk `json:"-"`
	// OldBlob and NewBlob are the ids of the file's blobs as the diff's
	// index line gives them in full (git diff --full-index); "" where it
	// gives none (no index line, a side that does not exist, an
	// abbreviated id).
	OldBlob string `json:"-"`
	NewBlob string `json:"-"`
	// HeadSrc and BaseSrc are the file's contents at head and at the
	// merge-base, read from git objects; nil where the side does not exist.
	HeadSrc []byte `json:"-"`
	BaseSrc []byte `json:"-"`
}

// Hunk is one hunk of a file's diff.
type Hunk struct {
	OldStart, OldLines int
	NewStart, NewLines int
	Lines              []Line
	// OldNoEOL means the hunk's last deleted line ends the base file
	// without a newline ("\ No newline at end of file" after it).
	OldNoEOL bool
}

// Line is one line of a hunk.
type Line struct {
	Kind byte   // '+', '-' or ' '
	CR   bool   // the line ended in CR LF; Text holds neither
	Old  int    // base-side line number; 0 for added lines
	New  int    // head-side line number; 0 for deleted lines
	Text string // the line without its prefix and line terminator
}

// Decl is one function, method, class or type a front end found in a file,
// changed or not. Symbols are the changed Decls.
type Decl struct {
	Local string // the name inside the file: merge_ranges, Type.Method, Outer.Inner.method
	Kind  string // function, method, class, type
	Start int    // first line of the span, 1-based (a decorator's line for decorated Python)
	End   int    // last line of the span, inclusive
	// Body is the first line of a Python function's body when it starts
	// on a line after the def's; 0 otherwise.
	Body int
}

// Symbol is a changed function, method or type.
type Symbol struct {
	Name         string `json:"name"`   // qualified: pkg.intervals.merge_ranges, example.com/m/pkg.Func
	Local        string `json:"local"`  // the name inside the file: merge_ranges, Type.Method
	Kind         string `json:"kind"`   // function, method, class, type
	Change       string `json:"change"` // added, modified, deleted
	Start        int    `json:"start"`  // first line of the span, 1-based
	End          int    `json:"end"`    // last line of the span, inclusive
	ChangedLines []int  `json:"changed_lines"`
}
