package golang

import (
	"fmt"
	"go/ast"
	"go/token"
	"strings"

	"github.com/premise-dev/premise/diffparse"
	"github.com/premise-dev/premise/evidence/gosource"
	"github.com/premise-dev/premise/evidence/lang"
)

// SignatureOf reads the parameters of a Go function or method from source;
// local is Func or Type.Method.
func SignatureOf(src []byte, local string) (*lang.Signature, error) {
	fset, f, err := gosource.ParseFile(src)
	if err != nil {
		return nil, fmt.Errorf("go signature: %w", err)
	}
	recv, name := "", local
	if i := strings.LastIndex(local, "."); i >= 0 {
		recv, name = local[:i], local[i+1:]
		if j := strings.LastIndex(recv, "."); j >= 0 {
			recv = recv[j+1:]
		}
	}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Name.Name != name {
			continue
		}
		if (recv == "") != (fd.Recv == nil) {
			continue
		}
		if recv != "" && diffparse.GoReceiver(fd) != recv {
			continue
		}
		return goSignature(fset, src, fd), nil
	}
	return nil, fmt.Errorf("go signature: no func %s", local)
}

func goSignature(fset *token.FileSet, src []byte, fd *ast.FuncDecl) *lang.Signature {
	sig := &lang.Signature{Language: "go", Generic: fd.Type.TypeParams != nil && len(fd.Type.TypeParams.List) > 0}
	if sig.Generic {
		for _, fld := range fd.Type.TypeParams.List {
			for _, n := range fld.Names {
				sig.TypeParams = append(sig.TypeParams, lang.Param{Name: n.Name, Type: exprString(fset, src, fld.Type)})
			}
		}
	}
	// A method of a generic type names the type's parameters in its
	// receiver (func (q *Queue[T]) Back() T): they are its type
	// parameters too, instantiated with the receiver's type.
	if fd.Recv != nil && len(fd.Recv.List) == 1 {
		recv := fd.Recv.List[0].Type
		if star, ok := recv.(*ast.StarExpr); ok {
			recv = star.X
		}
		var idx []ast.Expr
		switch x := recv.(type) {
		case *ast.IndexExpr:
			idx = []ast.Expr{x.Index}
		case *ast.IndexListExpr:
			idx = x.Indices
		}
		for _, e := range idx {
			sig.TypeParams = append(sig.TypeParams, lang.Param{Name: exprString(fset, src, e)})
		}
	}
	for _, fld := range fd.Type.Params.List {
		typ := exprString(fset, src, fld.Type)
		if len(fld.Names) == 0 {
			sig.Params = append(sig.Params, lang.Param{Name: fmt.Sprintf("arg%d", len(sig.Params)), Type: typ})
		}
		for _, n := range fld.Names {
			sig.Params = append(sig.Params, lang.Param{Name: n.Name, Type: typ})
		}
	}
	return sig
}

func exprString(fset *token.FileSet, src []byte, e ast.Expr) string {
	from, to := fset.Position(e.Pos()).Offset, fset.Position(e.End()).Offset
	if from < 0 || to > len(src) || from > to {
		return ""
	}
	return string(src[from:to])
}
