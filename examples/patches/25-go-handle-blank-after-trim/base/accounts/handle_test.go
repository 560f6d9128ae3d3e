package accounts

import "testing"

func TestNormalizeHandle(t *testing.T) {
	got, err := NormalizeHandle("  Ada_L ")
	if err != nil || got != "ada_l" {
		t.Errorf("NormalizeHandle = %q, %v; want \"ada_l\"", got, err)
	}
	if _, err := NormalizeHandle(""); err == nil {
		t.Errorf("NormalizeHandle accepted an empty handle")
	}
}
