// Package languages links in every language the evidence engine is built
// for. The engine reaches a language only through the seam's registry
// (evidence/lang), which each language fills from its own package's init;
// a program that runs the engine imports this package for that effect,
// and a new language is one more line here.
package languages

import (
	// Each registers itself with lang.Register.
	_ "github.com/premise-dev/premise/evidence/golang"
	_ "github.com/premise-dev/premise/evidence/javascript"
	_ "github.com/premise-dev/premise/evidence/python"
)
