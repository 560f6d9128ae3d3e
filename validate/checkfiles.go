package validate

import (
	"errors"
	"io/fs"
	"sort"
)

// CheckFiles names the files the register check reads.
type CheckFiles struct {
	Register   string
	Partitions string
	Freezes    string // a missing file is no freezes
	// Head is the commit being checked, for the freezes' age; "" when
	// unknown. HeadOf, when Head is "" and there are freezes, is asked
	// for it (a git process a repository without freezes need not start).
	Head   string
	HeadOf func() string
	// MergeBase and DescendsFrom identify the change being checked, so a
	// register drafted for another change fails (CheckInput).
	MergeBase    string
	DescendsFrom func(commit string) bool
	// ChangeUnknown says why the change could not be identified.
	ChangeUnknown string
}

// CheckResult is the register check's outcome with the files it read.
type CheckResult struct {
	*CheckReport
	Register *Register
	Table    *Table
	Freezes  Freezes
}

// CheckPaths is the register-check stage: it reads the register, the
// partition table and the freezes, and runs Check. A missing table is an
// empty one while no assumption is accepted (a format-only patch needs no
// table: seed 004, "skip the ritual"). Files that do not load are one
// *LoadError holding every problem of every file, so a user fixes them in
// one pass; findings are in the result, not the error.
func CheckPaths(files CheckFiles) (*CheckResult, error) {
	reg, rErr := LoadRegister(files.Register)
	tb, tErr := LoadTable(files.Partitions)
	fz, fErr := LoadFreezes(files.Freezes)
	if errors.Is(tErr, fs.ErrNotExist) && rErr == nil && !anyAccepted(reg) {
		tb, tErr = &Table{Version: FormatVersion, Rows: []Row{}}, nil
	}
	var problems []Problem
	for _, err := range []error{rErr, tErr, fErr} {
		if err == nil {
			continue
		}
		var le *LoadError
		if errors.As(err, &le) {
			problems = append(problems, le.Problems...)
		} else {
			problems = append(problems, Problem{Msg: oneLine(err.Error())})
		}
	}
	if len(problems) > 0 {
		return nil, &LoadError{File: files.Register, Problems: problems}
	}
	head := files.Head
	if head == "" && len(fz) > 0 && files.HeadOf != nil {
		head = files.HeadOf()
	}
	in := &CheckInput{Register: reg, RegisterFile: files.Register, Table: tb, TableFile: files.Partitions,
		FrozenFile: files.Freezes, CurrentHead: head, CurrentMergeBase: files.MergeBase, DescendsFrom: files.DescendsFrom, ChangeUnknown: files.ChangeUnknown}
	hashes := make([]string, 0, len(fz))
	for h := range fz {
		hashes = append(hashes, h)
	}
	sort.Strings(hashes)
	for _, h := range hashes {
		f := fz[h]
		in.Frozen = append(in.Frozen, FrozenRow{Hash: h, RowID: f.RowID, Reason: f.Reason, Replacement: f.ReplacementRow, FrozenCommit: f.FrozenCommit})
	}
	return &CheckResult{CheckReport: Check(in), Register: reg, Table: tb, Freezes: fz}, nil
}

func anyAccepted(r *Register) bool {
	for _, it := range r.Items {
		if it.Status == StatusAccepted {
			return true
		}
	}
	return false
}
