// Package gate runs partition-table rows against the code under test in a
// separate worker process, every row several times, isolates flakes by row
// hash, spends the flake budget, and writes reports. It never imports, links
// or evaluates the subject inside its own process.
package gate
