// Package pipeline joins premise's stages into one run (issue 7): diff,
// propose, filter, merge into the register, differential evidence for the
// reviewer, partitions for accepted rows, the register check, the
// must-reject corpus and the gate. It stops at the first stage that cannot
// proceed and says what the user does next.
package pipeline
