package envfile

import (
	"maps"
	"testing"
)

func TestParse(t *testing.T) {
	got, err := Parse([]string{"# deploy", "REGION=eu-west-1", "", "REPLICAS = 3"})
	want := map[string]string{"REGION": "eu-west-1", "REPLICAS": "3"}
	if err != nil || !maps.Equal(got, want) {
		t.Errorf("Parse = %v, %v; want %v", got, err, want)
	}
	if _, err := Parse([]string{"just a line"}); err == nil {
		t.Errorf("Parse accepted a line without =")
	}
}
