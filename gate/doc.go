// Package gate runs partition-table rows against the code under test in a
// separate worker process, every row several times, isolates flakes by row
// hash, spends the flake budget, and writes reports. It never imports, links
// or evaluates the subject inside its own process.
//
// The whole run, as premise gate and premise run call it:
//
//	tab, err := validate.LoadTable("partitions.yaml")
//	fz, err := gate.LoadFreezes(".gate/frozen_rows.json") // missing file: no freezes
//	rep, err := gate.Run(ctx, gate.Config{Repo: ".", Budget: gate.DefaultBudget, Freezes: fz}, tab)
//	// err: the run could not happen (an input error, or an *InfraError:
//	// no interpreter, the module does not import). Findings are in rep:
//	// rep.Exit is 0 (holds), 1 (a row failed, errored or flaked) or 2 (frozen
//	// plus flaking rows over the budget).
//	gate.WriteText(os.Stdout, rep) // also WriteJSON, WriteJUnit, WriteMarkdown, WriteSARIF
//
// Differential runs (Config.Base, or Differential) check the base revision
// out in a sealed temporary copy (Checkout) and run the same rows there;
// Report.Changed lists the rows whose outcome changed, invalid inputs that
// used to raise and now return first.
//
// Adapters speak DESIGN.md's runner protocol to a long-lived worker; use one
// directly to call a target outside a table:
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
// NewGoAdapter builds a harness inside the target's module; NewExecAdapter
// runs any command that speaks the protocol on stdin and stdout.
package gate
