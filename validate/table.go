package validate

// Table is partitions.yaml: seed 004's partition table plus premise's
// machine-checkable additions (contract, raises, metamorphic, args/kwargs,
// same_as_base). A table in exactly seed 004's shape is valid.
type Table struct {
	Version int `yaml:"version" json:"version"`
	// Target is the target of rows that name none. Older tables have one
	// target for all their rows; premise now writes each row's own, so one
	// table holds the rows of every change.
	Target   string `yaml:"target,omitempty" json:"target,omitempty"`     // intervals.merge_ranges, or a Go importpath.Func
	Language string `yaml:"language,omitempty" json:"language,omitempty"` // python, go, exec
	Rows     []Row  `yaml:"rows" json:"rows"`

	// contracts are the rows' contracts compiled when the table was read,
	// by expression (Contract).
	contracts map[string]*Contract
}

// Contract returns the compiled form of expr, a contract of one of t's
// rows: the one compiled when the table was read (ParseTable compiles each
// distinct contract once), else compiled now.
func (t *Table) Contract(expr string) (*Contract, error) {
	if c, ok := t.contracts[expr]; ok {
		return c, nil
	}
	return CompileContract(expr)
}

// Compiled returns the contract the table compiled for expr when it was
// read (ParseTable); ok is false when it did not.
func (t *Table) Compiled(expr string) (c *Contract, ok bool) {
	c, ok = t.contracts[expr]
	return c, ok
}

// Row kinds (seed 004, Step 3).
const (
	KindRepresentative = "representative"
	KindBoundary       = "boundary"
	KindInvalid        = "invalid"
)

// Row is one partition row: a fixed input, a relation in words, and a check.
type Row struct {
	ID            string   `yaml:"id" json:"id"` // P001
	Cls           string   `yaml:"cls" json:"cls"`
	Kind          string   `yaml:"kind" json:"kind"`
	Inp           any      `yaml:"inp,omitempty" json:"inp,omitempty"` // the single argument; see HasInp
	Relation      string   `yaml:"relation" json:"relation"`
	AssumptionIDs []string `yaml:"assumption_ids" json:"assumption_ids"`

	// HasInp is true when the row states inp, even as null: seed 004's P008
	// passes None, which is not the same as passing nothing.
	HasInp bool `yaml:"-" json:"-"`

	// premise's additions, all optional on input.
	Target      string         `yaml:"target,omitempty" json:"target,omitempty"` // overrides Table.Target
	Args        []any          `yaml:"args,omitempty" json:"args,omitempty"`
	Kwargs      map[string]any `yaml:"kwargs,omitempty" json:"kwargs,omitempty"`
	Contract    string         `yaml:"contract,omitempty" json:"contract,omitempty"` // CEL over result, inp, args, kwargs
	Raises      string         `yaml:"raises,omitempty" json:"raises,omitempty"`     // invalid rows: the class that must be raised
	Metamorphic []string       `yaml:"metamorphic,omitempty" json:"metamorphic,omitempty"`
	SameAsBase  bool           `yaml:"same_as_base,omitempty" json:"same_as_base,omitempty"`
	Todo        string         `yaml:"todo,omitempty" json:"todo,omitempty"`         // a template could not fill the row; check rejects it
	Property    *Property      `yaml:"property,omitempty" json:"property,omitempty"` // kind property: generated inputs and the property they must keep
	// Expect pins one outcome (issue 25): a change item's witness row
	// passes only when the call returns this value or raises this class.
	// Decision is that item's decision: accepted pins the head's outcome
	// at review (the change is intended), rejected the base's (a
	// regression the head must undo).
	Expect   *Outcome `yaml:"expect,omitempty" json:"expect,omitempty"`
	Decision string   `yaml:"decision,omitempty" json:"decision,omitempty"`
	// Test, when set, names one of the merge-base's tests ("FILE: NAME",
	// as a change item's witness names it): the row runs that test on the
	// code, the base's test file laid over the code's own, instead of
	// calling the target, and Expect says whether it must pass or fail.
	Test string `yaml:"test,omitempty" json:"test,omitempty"`

	// SrcLine is the line the row starts on in the file it was loaded from,
	// for messages; 0 for a row built in memory. It is never written.
	SrcLine int `yaml:"-" json:"-"`
}

// Metamorphic relations the runner checks beside the contract.
const (
	RelPermutation = "permutation" // the list argument reversed and shuffled gives an equal result
	RelIdempotent  = "idempotent"  // f(f(x)) == f(x)
)

// CallArgs returns the positional and keyword arguments the row's target is
// called with: seed 004's single inp, or premise's args/kwargs.
func (r Row) CallArgs() ([]any, map[string]any) {
	if r.HasInp {
		return []any{r.Inp}, nil
	}
	args := r.Args
	if args == nil {
		args = []any{}
	}
	return args, r.Kwargs
}

// Targets lists the targets the rows call, each once, in row order.
func (t *Table) Targets() []string {
	var out []string
	seen := map[string]bool{}
	for _, r := range t.Rows {
		if tg := t.TargetOf(r); !seen[tg] {
			seen[tg] = true
			out = append(out, tg)
		}
	}
	if len(out) == 0 && t.Target != "" {
		out = []string{t.Target}
	}
	return out
}

// Retarget makes every row call target: premise gate --fn.
func (t *Table) Retarget(target string) {
	t.Target = target
	for i := range t.Rows {
		t.Rows[i].Target = ""
	}
}

// TargetOf returns the row's target: its own, else the table's.
func (t *Table) TargetOf(r Row) string {
	if r.Target != "" {
		return r.Target
	}
	return t.Target
}
