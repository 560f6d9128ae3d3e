// Package schemas holds the JSON Schemas (draft 2020-12) of the files premise
// keeps in a repository: the register, the partition table, the freezes and
// the must-reject lockfile. premise schema NAME prints one; the files premise
// writes name theirs on their first line, so an editor checks them as they
// are typed. The strict readers in validate and gate/reject remain the
// authority: a file a schema refuses, they refuse too.
package schemas
