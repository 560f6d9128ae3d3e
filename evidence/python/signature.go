package python

import (
	"fmt"

	"github.com/premise-dev/premise/diffparse"
	"github.com/premise-dev/premise/evidence/lang"
)

func pythonSignature(ps []diffparse.Param) *lang.Signature {
	sig := &lang.Signature{Language: "python", Params: []lang.Param{}}
	for _, p := range ps {
		if p.Varargs {
			sig.Varargs = &lang.Param{Name: p.Name, Type: p.Type}
			continue
		}
		if p.Kwargs {
			sig.Kwargs = &lang.Param{Name: p.Name, Type: p.Type}
			continue
		}
		sig.Params = append(sig.Params, lang.Param{Name: p.Name, Type: p.Type, Default: p.Default, KeywordOnly: p.KeywordOnly})
	}
	return sig
}

// PythonSignature reads the parameters of a Python function from source
// with tree-sitter (diffparse.PythonParams): local is the function's name,
// Class.method, or a qualified name whose longest suffix names a function.
// Annotations and defaults are kept as written.
func SignatureOf(src []byte, local string) (*lang.Signature, error) {
	ps, err := diffparse.PythonParams(src, local)
	if err != nil {
		return nil, fmt.Errorf("python signature: %w", err)
	}
	return pythonSignature(ps), nil
}
