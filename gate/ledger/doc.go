// Package ledger keeps the flake ledger of seed 002 (flake_ledger.json): a
// JSON object keyed by test node id that records evidence instead of
// vibes, and moves each test between the states active, watch, frozen and
// broken. A frozen test does not gate a merge, but it still runs and every
// run is recorded; only a human's unfreeze, followed by clean reruns on
// one seed, makes it active again.
package ledger
