package evidence

import "github.com/premise-dev/premise/evidence/lang"

// Signatures returns the signature of every function and method of a
// Python or Go file by its local name (f, Class.method, Type.Method),
// parsing the file once; nil when it does not parse or the language has no
// front end.
func Signatures(language string, src []byte) map[string]*Signature {
	if l := lang.StaticLanguages()[language]; l != nil {
		return l.Signatures(src)
	}
	return nil
}
