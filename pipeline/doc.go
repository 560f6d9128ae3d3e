// Package pipeline joins premise's stages into one run, premise run: diff,
// propose into the register, base-vs-head evidence for the reviewer, the
// review stop, partitions for accepted rows, the register check, the
// must-reject corpus and the gate. It calls each stage's own entry point
// (propose.Update, evidence.Run, evidence.Extend, validate.CheckPaths,
// reject.RunCorpus, gate.RunFile), the ones the CLI verbs call, handing each
// what the earlier ones computed, and stops at the first stage that cannot
// proceed, saying what the user does next.
package pipeline
