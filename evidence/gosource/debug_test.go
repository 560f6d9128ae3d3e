package gosource

import (
	"encoding/json"
	"os"
	"sort"
	"testing"
)

func TestDebugDump(t *testing.T) {
	dir := os.Getenv("GOSOURCE_DUMP")
	if dir == "" {
		t.Skip()
	}
	p, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	p.harvest()
	var keys []string
	for k := range p.calls {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		for _, c := range p.calls[k] {
			b, _ := json.Marshal(c)
			t.Logf("%s %s", k, b)
		}
	}
	for k, v := range p.ctors {
		b, _ := json.Marshal(v)
		t.Logf("ctor %s %s", k, b)
	}
}
