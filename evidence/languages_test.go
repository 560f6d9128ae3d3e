package evidence_test

// The engine's tests run it with every language registered, as premise
// itself does.
import _ "github.com/premise-dev/premise/evidence/languages"
