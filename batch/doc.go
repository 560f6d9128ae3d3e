// Package batch runs premise over every open pull request at once
// (`premise batch`): each pull request's head against its merge-base,
// through the same stages as premise run (pipeline.Run), in its own
// checkouts, with one reply cache across them, writing
// OUT/<pr>/{assumptions.yaml,draft.md,run.json} and a summary ordered by
// risk (OUT/summary.json, OUT/summary.md). Shards of one batch, run on
// many machines by a CI matrix, are joined by Merge.
package batch
