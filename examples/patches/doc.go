// Package patches is the evaluation corpus of small agent patches that
// `premise run` is measured on (issue 7): each case directory holds a base
// tree, the agent's head tree and a case.yaml that says whether the patch
// breaks a boundary, on which input, and what base and head each do there.
//
// The package has no code of its own; its test runs every case on a real
// python3 or go toolchain, so the corpus cannot claim a behaviour change that
// does not happen, or call a patch benign when it is not.
package patches
