// Package validate owns premise's file formats (the assumption register and
// the partition table) with strict schemas, and the filter that keeps only
// candidate rows citing a real changed symbol and quoting the real diff.
//
// LoadRegister and LoadTable refuse unknown fields and report every
// problem with its file and line (a *LoadError); SaveRegister and SaveTable
// write atomically in a stable field order. Decide records a reviewer's
// accept or reject in the register's own text, keeping its comments. Check
// is the CI register check of seed 004 (Steps 2-4 and 6), each check a
// CheckRule value. Row.Hash is the row hash of seed 004 over RFC 8785
// canonical JSON, so a Python tool computes the same value.
package validate
