// Package holdout enforces seed 002's split: public tests the agent may
// read, a holdout tree it never receives, and properties over generated
// inputs. Check blocks a patch that touches the holdout tree and lists the
// public tests it rewrote; Sparse gives the sparse-checkout patterns that
// keep the holdout out of the generate job's workspace; Classify sorts
// each holdout failure into the four buckets (contamination, real
// regression, spec drift, flake) with the seed's action.
//
// A holdout failure is reported by its relation (the test, without the
// row's parameter) and never by its row or its message: pasting the row
// back into the agent's prompt would hand it the holdout (seed 002: paste
// the relation, not the row).
package holdout
