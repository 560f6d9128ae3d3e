package validate

// Register is assumptions.yaml: seed 004's schema plus premise's provenance.
// A register written by hand in exactly seed 004's shape (no provenance, no
// notes) is valid.
type Register struct {
	Version    int         `yaml:"version" json:"version"`
	PatchRef   string      `yaml:"patch_ref" json:"patch_ref"`
	Provenance *Provenance `yaml:"provenance,omitempty" json:"provenance,omitempty"`
	Items      []Item      `yaml:"items" json:"items"`
}

// Provenance records where a register's rows came from.
type Provenance struct {
	Base         string `yaml:"base,omitempty" json:"base,omitempty"`
	Head         string `yaml:"head,omitempty" json:"head,omitempty"`
	MergeBase    string `yaml:"merge_base,omitempty" json:"merge_base,omitempty"`
	Model        string `yaml:"model,omitempty" json:"model,omitempty"`
	Prompt       string `yaml:"prompt,omitempty" json:"prompt,omitempty"`
	PromptSHA256 string `yaml:"prompt_sha256,omitempty" json:"prompt_sha256,omitempty"`
}

// Item statuses (seed 004, Step 2). Unreviewed proposed rows fail the gate:
// silence is not assent.
const (
	StatusProposed = "proposed"
	StatusAccepted = "accepted"
	StatusRejected = "rejected"
)

// Item is one item of the register: an assumption (A001) or a behaviour
// change (C001).
type Item struct {
	ID           string `yaml:"id" json:"id"` // A001
	Symbol       string `yaml:"symbol" json:"symbol"`
	Precondition string `yaml:"precondition" json:"precondition"`
	Evidence     string `yaml:"evidence" json:"evidence"`
	Status       string `yaml:"status" json:"status"`

	// premise's additions, all optional on input.
	Note   string `yaml:"note,omitempty" json:"note,omitempty"`     // the reviewer's reason
	Source string `yaml:"source,omitempty" json:"source,omitempty"` // "model:NAME" or "static:RULE"
	File   string `yaml:"file,omitempty" json:"file,omitempty"`     // where the evidence is
	Line   int    `yaml:"line,omitempty" json:"line,omitempty"`
	// Stale marks a row the current diff no longer supports. Its status and
	// note are kept: a human decision is never lost.
	Stale bool `yaml:"stale,omitempty" json:"stale,omitempty"`

	// A change item (C001, issue 25) is one way a symbol's behaviour
	// changed, found by the evidence stage: accepted, the change is
	// intended and its witnesses' rows pin the head's outcome; rejected,
	// it is a regression and they pin the base's. Its precondition says
	// the way, its evidence the shown witness.
	Way string `yaml:"way,omitempty" json:"way,omitempty"`
	// Callers are the unchanged callers the change was seen through, when
	// the symbol is a helper they reach.
	Callers []string `yaml:"callers,omitempty" json:"callers,omitempty"`
	// Assumptions are the assumptions whose rows found the change: one of
	// them accepted explains it.
	Assumptions []string `yaml:"assumptions,omitempty" json:"assumptions,omitempty"`
	// Witnesses are the inputs the change was seen on, each with the call
	// the gate replays and what base and head did.
	Witnesses []Witness `yaml:"witnesses,omitempty" json:"witnesses,omitempty"`

	// SrcLine is the line the item starts on in the file it was loaded
	// from, for messages; 0 for an item built in memory. It is never
	// written.
	SrcLine int `yaml:"-" json:"-"`
}
