package config

import "testing"

func TestParseTimeout(t *testing.T) {
	got, err := ParseTimeout(" 30 ")
	if err != nil || got != 30 {
		t.Errorf("ParseTimeout(\" 30 \") = %d, %v; want 30, nil", got, err)
	}
	if _, err := ParseTimeout("7200"); err == nil {
		t.Errorf("ParseTimeout(\"7200\") accepted a timeout over the maximum")
	}
}
