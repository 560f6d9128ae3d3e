package diffparse

/*
#include <stdlib.h>
void ts_set_allocator(void *(*new_malloc)(size_t), void *(*new_calloc)(size_t, size_t),
	void *(*new_realloc)(void *, size_t), void (*new_free)(void *));
static void premise_ts_use_libc(void) { ts_set_allocator(malloc, calloc, realloc, free); }
*/
import "C"

// go-tree-sitter routes every allocation of the C library through a Go
// callback (C -> Go -> C.malloc), which costs a quarter of a parse. Its
// default functions end in libc's malloc anyway, so the library is pointed at
// libc directly: memory allocated before and after the switch comes from the
// same allocator.
func init() { C.premise_ts_use_libc() }
