// Package gate runs partition-table rows against the code under test in a
// separate worker process, every row several times, isolates flakes by row
// hash, spends the flake budget, and writes reports. It never imports, links
// or evaluates the subject inside its own process.
//
// Adapters speak DESIGN.md's runner protocol to a long-lived worker:
//
//	a, err := gate.NewPythonAdapter(gate.PythonConfig{Dir: repo, Timeout: 10 * time.Second})
//	if err != nil { ... }            // *InfraError: the interpreter is missing
//	defer a.Close()
//	r, err := a.Call(ctx, gate.Call{ID: "P004", Target: "intervals.merge_ranges",
//		Args: []any{[]any{[]any{4, 6}, []any{0, 1}}}})
//	// err != nil (*InfraError): the call could not be attempted (no such module).
//	// r.Outcome: returned (r.Value, numbers as json.Number), raised (r.Exc),
//	// timeout or crashed (r.Detail; the next Call gets a fresh worker),
//	// unencodable (the value has no JSON form).
//
// Freezes (.gate/frozen_rows.json, seed 004) load with LoadFreezes.
package gate
