package diffparse

/*
#include <stdlib.h>
void ts_set_allocator(void *(*new_malloc)(size_t), void *(*new_calloc)(size_t, size_t),
	void *(*new_realloc)(void *, size_t), void (*new_free)(void *));
static void premise_ts_use_libc(void) { ts_set_allocator(malloc, calloc, realloc, free); }
*/
import "C"

// A fast path for python.go's parses (issue 12 keeps it: removing it cost
// more than 20%). go-tree-sitter routes every allocation of the C library
// through a Go callback (C -> Go -> C.malloc); its default functions end in
// libc's malloc anyway, so the library is pointed at libc directly, and
// memory allocated before and after the switch comes from the same
// allocator. Without it tree-sitter's plain default is used and nothing
// else changes.
//
// Benchmark: premise diff --repo more-itertools --base HEAD~300 --head HEAD
// --json, median of 21 interleaved runs on 2 CPUs: CPU x1.23 to x1.27
// without it (337 vs 274 ms, 297 vs 234 ms in two rounds); one commit
// touching the 7,000-line tests/test_more.py (HEAD~2..HEAD~1): x1.37.
func init() { C.premise_ts_use_libc() }
