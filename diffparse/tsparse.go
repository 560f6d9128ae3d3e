package diffparse

/*
#include <stdint.h>
typedef struct TSParser TSParser;
typedef struct TSTree TSTree;
TSTree *ts_parser_parse_string(TSParser *self, const TSTree *old_tree, const char *string, uint32_t length);
*/
import "C"

import (
	"math"
	"unsafe"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// parseDirect says whether parseString may reach the C objects inside
// go-tree-sitter's Parser and Tree, each of which holds nothing but its C
// pointer (v0.25.0; checked here, so a version that adds fields falls back
// to Parser.Parse instead of misreading memory).
var parseDirect = unsafe.Sizeof(sitter.Parser{}) == unsafe.Sizeof(uintptr(0)) &&
	unsafe.Sizeof(sitter.Tree{}) == unsafe.Sizeof(uintptr(0))

// parseString parses src as p.Parse(src, old) does, through tree-sitter's
// own ts_parser_parse_string. Parser.Parse reads the text through a Go
// callback that copies what is left of it twice on every read, about ten
// reads a parse: on a long range of small statements the callbacks cost a
// tenth of the parsing.
func parseString(p *sitter.Parser, src []byte, old *sitter.Tree) *sitter.Tree {
	if !parseDirect || len(src) > math.MaxUint32 {
		return p.Parse(src, old)
	}
	var oldTree *C.TSTree
	if old != nil {
		oldTree = *(**C.TSTree)(unsafe.Pointer(old))
	}
	// The text is read during the call only; a tree keeps none of it.
	t := C.ts_parser_parse_string(*(**C.TSParser)(unsafe.Pointer(p)), oldTree, (*C.char)(unsafe.Pointer(unsafe.SliceData(src))), C.uint32_t(len(src)))
	if t == nil {
		return nil
	}
	tree := new(sitter.Tree)
	*(**C.TSTree)(unsafe.Pointer(tree)) = t
	return tree
}
