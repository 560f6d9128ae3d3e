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
//
// # JavaScript and TypeScript
//
// NewNodeAdapter (languages "javascript" and "typescript", one worker for
// both) runs calls in Node, in the same box as the Python worker: the
// worker is source premise evaluates, importing only node: built-ins, so
// no file the head adds can stand in for it, and the built-ins that write
// replies are bound before any subject code runs. TypeScript and JSX are
// transpiled first by esbuild's Go API, in premise's process and without
// type checking, into a .js (.mjs, .cjs) file beside each source in the
// private copy, as tsc would write them: Node then loads plain JavaScript by
// its own rules, and "./x.js" finds what x.ts became.
//
// A target is a module path from the repository's top without its
// extension, then dotted names, as premise diff names JavaScript symbols:
// "src/lib/ranges.mergeRanges", "src/lib/ranges.default",
// "src/lib/ranges.Interval" (constructed with new),
// "src/lib/ranges.Interval.merge" (an instance method, its receiver the
// first argument). JSON cannot say everything JavaScript can, and the
// comparison must see what JavaScript sees, so one encoding carries values
// both ways: JSON where it means the same, else an object with one "$" key:
// {"$undefined": true} apart from null, {"$number": "-0"} apart from 0,
// {"$number": "NaN"} equal to itself, {"$bigint": "123"}, {"$map": [[k,
// v]]} and {"$set": [...]} in insertion order, {"$date": ISO}, and a class
// instance as {"$class": name, "$fields": {own fields}}, so two instances
// are equal when their classes' names and own fields are. In arguments,
// {"$new": "src/lib/ranges.Interval", "$args": [...]} builds a receiver
// and {"$nullproto": {...}} an object without a prototype. Both ways,
// {"$utf16": [97, 55296]} is a string holding a lone surrogate, by its
// code units, which no Go string can hold.
// A returned promise is awaited; a rejection, like a throw, is a raise of
// the thrown value's class (its type for a thrown string or number, which
// is then also its code). harness/node_worker.mjs's header has the whole
// table.
//
// With a Watch (evidence's, never the gate's own), the Node worker runs
// under V8's precise coverage and each reply carries the watched lines the
// call ran; a TypeScript file's lines are read back from what esbuild
// wrote through its source map (nodecover.go).
package gate
