// Package humanize is a fixture: its tests are only external, import it by
// a path ending in go-humanize, and there is no go.mod of its own.
package humanize

import "strconv"

// Comma formats n.
func Comma(n int64) string { return strconv.FormatInt(n, 10) }

// Bytes formats a size.
func Bytes(s uint64) string { return strconv.FormatUint(s, 10) }

// Broken is in a file that does not parse too.
func Broken() {}
