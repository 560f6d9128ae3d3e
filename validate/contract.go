package validate

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"runtime"
	"sync"
	"time"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/types"
)

// Contract is a compiled CEL predicate over a row's result. It sees
// `result` (what the target returned), `inp` (seed 004's single argument),
// `args` and `kwargs`.
type Contract struct {
	Expr string
	prg  cel.Program
	lit  *literalContract // `result == LITERAL`: judged without CEL
}

// contractEnv is built once: an environment is safe for concurrent use,
// and building one costs more than compiling a contract.
var contractEnv = sync.OnceValues(func() (*cel.Env, error) {
	return cel.NewEnv(
		cel.Variable("result", cel.DynType),
		cel.Variable("inp", cel.DynType),
		cel.Variable("args", cel.ListType(cel.DynType)),
		cel.Variable("kwargs", cel.MapType(cel.StringType, cel.DynType)),
	)
})

// CompileContract compiles expr, so that a typo is an error when the table
// loads, before anything runs. The expression must yield a bool.
func CompileContract(expr string) (*Contract, error) {
	if lc, ok := parseLiteralContract(expr); ok {
		return &Contract{Expr: expr, lit: lc}, nil
	}
	env, ast, err := compileAST(expr)
	if err != nil {
		return nil, err
	}
	prg, err := env.Program(ast, cel.EvalOptions(cel.OptOptimize),
		cel.CostLimit(ContractCostLimit), cel.InterruptCheckFrequency(64))
	if err != nil {
		return nil, fmt.Errorf("contract %q: %w", expr, err)
	}
	return &Contract{Expr: expr, prg: prg}, nil
}

// compileAST parses and type-checks expr: everything CompileContract does
// but plan the program, which is all a table load needs to know.
func compileAST(expr string) (*cel.Env, *cel.Ast, error) {
	env, err := contractEnv()
	if err != nil {
		return nil, nil, err
	}
	ast, iss := env.Compile(expr)
	if iss != nil && iss.Err() != nil {
		return nil, nil, fmt.Errorf("contract %q: %s", expr, oneLine(iss.Err().Error()))
	}
	if t := ast.OutputType(); t != cel.BoolType && t != cel.DynType {
		return nil, nil, fmt.Errorf("contract %q: yields %s, not bool", expr, t)
	}
	return env, ast, nil
}

// compileContracts compiles many contracts on every CPU, each distinct
// expression once: compiling CEL costs a fraction of a millisecond, which
// a table of 20,000 rows would otherwise pay one after another. It returns
// the compiled contracts by expression, and the error of each expression
// that does not compile.
func compileContracts(exprs []string) (map[string]*Contract, map[string]error) {
	uniq := make(map[string]bool, len(exprs))
	var todo []string
	for _, e := range exprs {
		if !uniq[e] {
			uniq[e] = true
			todo = append(todo, e)
		}
	}
	compiled := make([]*Contract, len(todo))
	errs := make([]error, len(todo))
	workers := min(runtime.GOMAXPROCS(0), len(todo))
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := w; i < len(todo); i += workers {
				compiled[i], errs[i] = CompileContract(todo[i])
			}
		}(w)
	}
	wg.Wait()
	out := make(map[string]*Contract, len(todo))
	bad := map[string]error{}
	for i, err := range errs {
		if err != nil {
			bad[todo[i]] = err
		} else {
			out[todo[i]] = compiled[i]
		}
	}
	return out, bad
}

// A contract's evaluation is bounded: a quadratic contract over a large
// result must not outlast the call it judges (issue 14, part 8).
const (
	// ContractCostLimit is CEL's cost limit for one evaluation: about a
	// million list-element visits.
	ContractCostLimit = 1_000_000
	// ContractTimeout bounds one evaluation's time.
	ContractTimeout = 5 * time.Second
)

// Eval reports whether the contract holds for result. Values are JSON-shaped
// (what the runner protocol carries); integral numbers are compared as
// integers so that `result == [[0, 7]]` holds for a decoded [[0.0, 7.0]].
// An evaluation error (a field that does not exist, a type mismatch) is
// returned as an error: the contract could not judge the result.
func (c *Contract) Eval(result, inp any, args []any, kwargs map[string]any) (bool, error) {
	if c.lit != nil {
		return c.lit.Eval(result, inp, args, kwargs)
	}
	if args == nil {
		args = []any{}
	}
	if kwargs == nil {
		kwargs = map[string]any{}
	}
	ctx, cancel := context.WithTimeout(context.Background(), ContractTimeout)
	defer cancel()
	out, _, err := c.prg.ContextEval(ctx, map[string]any{
		"result": Normalize(result),
		"inp":    Normalize(inp),
		"args":   Normalize(args),
		"kwargs": Normalize(kwargs),
	})
	if err != nil {
		return false, fmt.Errorf("contract %q: %w", c.Expr, err)
	}
	b, ok := out.(types.Bool)
	if !ok {
		return false, fmt.Errorf("contract %q: yields %s, not bool", c.Expr, out.Type())
	}
	return bool(b), nil
}

// Normalize converts a JSON-shaped value for comparison: json.Number and
// integral float64 values become int64, other numbers float64, and nested
// lists and maps are converted throughout. nil stays nil (CEL's null).
func Normalize(v any) any {
	switch x := v.(type) {
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return i
		}
		f, err := x.Float64()
		if err != nil {
			return x.String()
		}
		return Normalize(f)
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1<<53 {
			return int64(x)
		}
		return x
	case float32:
		return Normalize(float64(x))
	case int:
		return int64(x)
	case int32:
		return int64(x)
	case uint64:
		if x <= math.MaxInt64 {
			return int64(x)
		}
		return float64(x)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = Normalize(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = Normalize(e)
		}
		return out
	default:
		return v
	}
}
