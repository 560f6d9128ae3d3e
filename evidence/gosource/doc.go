// Package gosource reads evidence for the functions of one Go package out
// of the package's own tests, with no compiler and no code run: the calls
// its tests, table tests, fuzz seeds, fuzz corpus and Example functions
// make with arguments known from the source (Calls), the constructor
// calls that build receivers (CtorCalls, Constructors), and what the
// package declares about its types (Underlying, Fields, Consts) and the
// literals its tests write (Literals). Issue 13, Go side: what pysource
// does for Python, for premise's Go rows, which the Go harness decodes
// from JSON into each parameter's type.
//
// Load parses one package directory once with go/parser: the non-test
// files, the in-package tests and the external package x_test, which
// reaches the package through its import path (read from go.mod) or a dot
// import. A file that does not parse, or is built only with
// //go:build ignore, is skipped; the others still give what they hold.
//
// An argument is known when it is a constant expression (literals,
// negative numbers, concatenations, iota, constants of the package and of
// the test files, math.MaxInt64, time.Second), nil, a composite literal of
// known values (slices, maps, structs keyed or positional, elided element
// types), a conversion (T("x"), []byte("x"), []rune("x")), strings.Repeat,
// strings.Join, strconv.Itoa, strconv.Quote, fmt.Sprint or fmt.Sprintf
// (without widths) of known values, a constructor call of the package with
// known arguments, the result of a test helper that only binds names,
// calls and checks before returning one value (func get(json, path string)
// Result { return GetBytes([]byte(json), path) }), or a name bound once to
// any of these: a local, a package-level variable nothing assigns, a
// table row, a loop value, a fuzz seed or a corpus value.
//
// The test code is walked, not run: statements in order; a loop over a
// literal table once per row (the calls then have Kind "table" and the
// row's position); an if or switch whose condition is known only down its
// taken branch, so a row's `if tt.skip { continue }` is honoured; t.Run
// bodies and other function literals in place; helper functions of the
// test files and function literals bound to a name inlined at each call,
// three deep, with a package function passed to one as a value
// (runTests(t, cases, ToBool)) called where the helper calls it. A name
// assigned inside a loop, a branch or a closure, or whose address is
// taken, becomes unknown from there on; an unknown value drops the calls
// that need it, never the others.
//
// Values follow the Go harness's encoding/json decoding (see Value): a
// struct is a map keyed by field name, a map's integer keys are decimal
// strings, a []byte is a []byte (base64 once marshalled), a value of a
// named type is its underlying value. An untyped constant takes the type
// of the parameter it is passed to, so F(1) for a float64 parameter is
// float64(1). An argument built by a constructor is a *Ctor the caller
// must build; a receiver is a Ctor: a constructor call, a composite
// literal (its fields that are not known, such as a func, left out), or a
// value of a named type. A receiver is what built it, not its state: the
// method calls a test makes on it first (f.IntVar, cmd.AddCommand) are not
// replayed, which still gives an input of the right type.
//
// Fuzz targets: f.Add seeds (also inside loops) and the files of
// testdata/fuzz/FuzzX (go test fuzz v1) are bound, by position, to the
// parameters of the f.Fuzz function after *testing.T; a value JSON cannot
// carry (NaN, Inf) drops its corpus file.
//
// A constructor's value with the type's own methods chained on it, each
// returning the type (New().JSONString(doc).From("items")), is the
// constructor's call and those steps (Ctor.Then), a builder's query as
// the test made it; a variadic constructor's or step's arguments are its
// last argument, one list.
//
// What is not read: receivers returned by other methods (v.Inc().String()),
// function-typed arguments (lo.Map(xs, func...)) and pointers to a test's
// variables (toml.Decode(s, &v)), which JSON cannot carry; tables built by
// a loop, append or a helper with loops; values from functions other than
// constructors and the few listed; loops of the form for i := 0; i <
// len(xs); i++ (range loops are expanded); arguments of another package's
// types built by its constructors (big.NewInt(5)); and build constraints
// other than ignore (files for every platform are read). The Go type of a
// value passed to an any parameter (int8(0), MyUint(8)) is lost: the row
// carries 0.
//
// Bounds: at most 500 calls per function and 500 constructor calls per
// type, 2000 rows per loop, strings of 64 KiB, 20000 values per argument,
// 200 corpus files per target, and a budget of steps for the whole
// package, so a hostile or generated test file cannot stall a run.
// Every query takes a lock: a Package is safe for concurrent use.
package gosource
