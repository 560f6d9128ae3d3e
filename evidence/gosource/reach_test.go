package gosource

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestTestsReaching: the base's tests premise runs on both sides are those
// that can reach a changed function, through helpers, methods, function
// values in a table and the external test package, examples included;
// the others would only cost their time.
func TestTestsReaching(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"go.mod": "module example.com/cal\n\ngo 1.21\n",
		"cal.go": `package cal

type Parser struct{ n int }

func Parse(s string) int { p := &Parser{}; return p.value(s) }

func (p *Parser) value(s string) int { return leap(len(s)) }

func leap(n int) int { return n % 4 }

func Other() int { return 1 }
`,
		"cal_test.go": `package cal

import "testing"

func decode(s string) int { return Parse(s) }

func TestDecode(t *testing.T) { _ = decode("x") }

func TestOther(t *testing.T) { _ = Other() }

func TestTable(t *testing.T) {
	for _, f := range []func(int) int{leap} {
		_ = f(1)
	}
}

func TestMain(m *testing.M) { m.Run() }
`,
		"ext_test.go": `package cal_test

import (
	"fmt"
	"testing"

	"example.com/cal"
)

func TestExternal(t *testing.T) { _ = cal.Parse("y") }

func ExampleParse() {
	fmt.Println(cal.Parse("y"))
	// Output: 1
}
`,
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"ExampleParse", "TestDecode", "TestExternal", "TestTable"}
	if got := p.TestsReaching([]string{"leap"}); !reflect.DeepEqual(got, want) {
		t.Errorf("tests reaching leap: %v, want %v", got, want)
	}
	if got := p.TestsReaching([]string{"Other"}); !reflect.DeepEqual(got, []string{"TestOther"}) {
		t.Errorf("tests reaching Other: %v, want [TestOther]", got)
	}
}
