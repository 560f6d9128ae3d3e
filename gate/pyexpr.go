package gate

import (
	"fmt"
	"regexp"
	"strings"
)

// The Python argument expressions rows carry ({"$expr": SRC, "$imports":
// [...]}, from the repository's tests and doctests, a model, or premise)
// are checked here, in premise, before any worker sees them (issue 26, item
// 2): a head's test could otherwise hand the base's worker an expression
// that reaches the interpreter's internals and makes the base answer like
// the head. The grammar is Python's expression syntax with these cut out:
// a name or attribute with a double underscore, an attribute of a builtin
// (type.mro, print.__self__), the builtins that reach around the grammar
// (getattr, eval, vars, ...), assignment expressions, and f-strings, whose
// braces are code.

// forbiddenBuiltins are the builtins an argument expression may not name
// at all: each reaches objects by a string, runs code, or rebinds state.
var forbiddenBuiltins = map[string]bool{
	"eval": true, "exec": true, "compile": true, "open": true, "getattr": true, "setattr": true,
	"delattr": true, "globals": true, "locals": true, "vars": true, "breakpoint": true,
	"input": true, "help": true, "exit": true, "quit": true, "type": true, "super": true,
	"memoryview": true, "dir": true, "classmethod": true, "staticmethod": true, "property": true,
}

// builtinNames are Python's builtins whose attributes an argument
// expression may not reach.
var builtinNames = map[string]bool{}

func init() {
	for _, n := range strings.Fields(`abs all any ascii bin bool bytearray bytes callable chr complex dict
		divmod enumerate filter float format frozenset hasattr hash hex id int isinstance issubclass iter
		len list map max min next object oct ord pow print range repr reversed round set slice sorted str
		sum tuple zip BaseException Exception ValueError TypeError KeyError IndexError RuntimeError
		AttributeError ArithmeticError ZeroDivisionError OverflowError StopIteration NotImplemented
		Ellipsis OSError ImportError LookupError`) {
		builtinNames[n] = true
	}
	for n := range forbiddenBuiltins {
		builtinNames[n] = true
	}
}

// CheckPythonExpr returns an error saying why src is outside the grammar
// argument expressions are held to, or nil.
func CheckPythonExpr(src string) error {
	toks, err := pyTokens(src)
	if err != nil {
		return err
	}
	for i, t := range toks {
		switch {
		case operatorMethod(toks, i) || operatorMethod(toks, i-2):
			// int.__truediv__: a builtin type's operator, as doctests pass
			// it; nothing may follow it with a dot.
		case t.kind == 'n' && strings.Contains(t.text, "__"):
			return fmt.Errorf("the name %s has a double underscore", t.text)
		case t.kind == 'n' && t.text == "type" && !afterDot(toks, i) && isTypeOfNone(toks, i):
			// type(None), premise's own name for NoneType.
		case t.kind == 'n' && forbiddenBuiltins[t.text] && !afterDot(toks, i):
			return fmt.Errorf("the builtin %s is not allowed", t.text)
		case t.kind == 'n' && builtinNames[t.text] && !afterDot(toks, i) && i+1 < len(toks) && toks[i+1].text == ".":
			return fmt.Errorf("an attribute of the builtin %s is not allowed", t.text)
		case t.kind == 'o' && t.text == ":=":
			return fmt.Errorf("an assignment expression is not allowed")
		case t.kind == 'o' && t.text == ";":
			return fmt.Errorf("a statement separator is not allowed")
		}
	}
	return nil
}

func afterDot(toks []pyToken, i int) bool { return i > 0 && toks[i-1].text == "." }

// operatorTypes and operatorDunders are the builtin types and the operator
// methods of theirs an argument may name (int.__truediv__, str.__add__):
// plain functions of two values, with no way onward but an attribute,
// which the grammar refuses after them.
var (
	operatorTypes   = map[string]bool{"int": true, "float": true, "complex": true, "str": true, "bytes": true, "bool": true, "list": true, "tuple": true, "dict": true, "set": true, "frozenset": true}
	operatorDunders = map[string]bool{}
)

func init() {
	for _, n := range strings.Fields(`add sub mul truediv floordiv mod pow divmod neg pos abs invert
		lt le eq ne gt ge and or xor lshift rshift radd rsub rmul rtruediv rfloordiv rmod rpow
		len contains getitem`) {
		operatorDunders["__"+n+"__"] = true
	}
}

// operatorMethod says toks[i:i+3] is TYPE . __op__, not followed by a dot
// and not itself after one.
func operatorMethod(toks []pyToken, i int) bool {
	return i >= 0 && i+2 < len(toks) && !afterDot(toks, i) && operatorTypes[toks[i].text] && toks[i+1].text == "." &&
		operatorDunders[toks[i+2].text] && (i+3 == len(toks) || toks[i+3].text != ".")
}

func isTypeOfNone(toks []pyToken, i int) bool {
	return i+3 < len(toks) && toks[i+1].text == "(" && toks[i+2].text == "None" && toks[i+3].text == ")" &&
		(i+4 == len(toks) || toks[i+4].text != ".")
}

// pyImport is the one shape an argument's import may take.
var pyImport = regexp.MustCompile(`^(import [A-Za-z_][\w.]*( as [A-Za-z_]\w*)?(, *[A-Za-z_][\w.]*( as [A-Za-z_]\w*)?)*|from \.*[\w.]* import \(?[A-Za-z_]\w*( as [A-Za-z_]\w*)?(, *[A-Za-z_]\w*( as [A-Za-z_]\w*)?)*,?\)?)$`)

// premiseScope is the one statement of premise's own making beyond plain
// imports: evidence's receivers name a module's classes as its own code
// does, "from MODULE import *" for a module named by a literal.
var premiseScope = regexp.MustCompile(`^globals\(\)\.update\(vars\(__import__\("[A-Za-z_][\w.]*", fromlist=\['_'\]\)\)\)$`)

// CheckPythonImport returns an error unless stmt is a plain import
// statement naming no dunder (or premise's own module scope).
func CheckPythonImport(stmt string) error {
	s := strings.Join(strings.Fields(stmt), " ")
	if premiseScope.MatchString(s) && !strings.Contains(s[strings.Index(s, `("`):], "__") {
		return nil
	}
	if !pyImport.MatchString(s) || strings.Contains(s, "__") {
		return fmt.Errorf("the import %q is not a plain import", oneLine(stmt, 80))
	}
	return nil
}

// checkPythonCall checks every argument expression and import of c.
func checkPythonCall(c Call) error {
	var walk func(v any) error
	walk = func(v any) error {
		switch x := v.(type) {
		case map[string]any:
			if src, ok := x["$expr"]; ok {
				s, _ := src.(string)
				if err := CheckPythonExpr(s); err != nil {
					return fmt.Errorf("argument %q: %w", oneLine(s, 80), err)
				}
				if ims, ok := x["$imports"].([]any); ok {
					for _, im := range ims {
						s, _ := im.(string)
						if err := CheckPythonImport(s); err != nil {
							return err
						}
					}
				}
			}
			for _, e := range x {
				if err := walk(e); err != nil {
					return err
				}
			}
		case []any:
			for _, e := range x {
				if err := walk(e); err != nil {
					return err
				}
			}
		}
		return nil
	}
	for _, a := range c.Args {
		if err := walk(a); err != nil {
			return err
		}
	}
	return walk(map[string]any(c.Kwargs))
}

// pyToken is one token of a Python expression: a name ('n'), a number or
// string literal ('l'), or an operator ('o').
type pyToken struct {
	kind byte
	text string
}

// pyTokens splits src into tokens, strings kept whole so that what is
// inside a literal is never taken for a name.
func pyTokens(src string) ([]pyToken, error) {
	var out []pyToken
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\\':
			i++
		case c == '#':
			return nil, fmt.Errorf("a comment is not allowed")
		case isPyNameStart(c):
			j := i
			for j < len(src) && (isPyNameStart(src[j]) || src[j] >= '0' && src[j] <= '9') {
				j++
			}
			word := src[i:j]
			if j < len(src) && (src[j] == '\'' || src[j] == '"') && isStringPrefix(word) {
				if strings.ContainsAny(strings.ToLower(word), "f") {
					return nil, fmt.Errorf("an f-string is not allowed")
				}
				end, err := pyStringEnd(src, j)
				if err != nil {
					return nil, err
				}
				out = append(out, pyToken{'l', src[i:end]})
				i = end
				continue
			}
			out = append(out, pyToken{'n', word})
			i = j
		case c >= '0' && c <= '9':
			j := i
			for j < len(src) && (isPyNameStart(src[j]) || src[j] >= '0' && src[j] <= '9' || src[j] == '.') {
				j++
			}
			out = append(out, pyToken{'l', src[i:j]})
			i = j
		case c == '\'' || c == '"':
			end, err := pyStringEnd(src, i)
			if err != nil {
				return nil, err
			}
			out = append(out, pyToken{'l', src[i:end]})
			i = end
		case c >= 0x80:
			return nil, fmt.Errorf("a non-ASCII name is not allowed")
		default:
			if i+1 < len(src) && src[i:i+2] == ":=" {
				out = append(out, pyToken{'o', ":="})
				i += 2
				continue
			}
			out = append(out, pyToken{'o', string(c)})
			i++
		}
	}
	return out, nil
}

func isPyNameStart(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func isStringPrefix(w string) bool {
	switch strings.ToLower(w) {
	case "r", "b", "u", "rb", "br", "f", "fr", "rf":
		return true
	}
	return false
}

// pyStringEnd is the index just past the string literal opening at src[i].
func pyStringEnd(src string, i int) (int, error) {
	q := src[i : i+1]
	if strings.HasPrefix(src[i:], strings.Repeat(q, 3)) {
		q = strings.Repeat(q, 3)
	}
	for j := i + len(q); j < len(src); j++ {
		if src[j] == '\\' {
			j++
			continue
		}
		if strings.HasPrefix(src[j:], q) {
			return j + len(q), nil
		}
	}
	return 0, fmt.Errorf("an unterminated string")
}
