// Package examples holds the examples bundled with premise and writes them
// out as git repositories, so `premise example intervals` gives anyone a
// patch to run premise on without a network or a model (issue 2).
package examples
