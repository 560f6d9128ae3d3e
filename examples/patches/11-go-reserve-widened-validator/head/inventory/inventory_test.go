package inventory

import (
	"errors"
	"testing"
)

func TestReserve(t *testing.T) {
	left, err := Reserve(10, 3)
	if err != nil || left != 7 {
		t.Errorf("Reserve(10, 3) = %d, %v; want 7, nil", left, err)
	}
	if _, err := Reserve(2, 5); !errors.Is(err, ErrOutOfStock) {
		t.Errorf("Reserve(2, 5) error = %v, want ErrOutOfStock", err)
	}
	if _, err := Reserve(2, 0); !errors.Is(err, ErrBadQuantity) {
		t.Errorf("Reserve(2, 0) error = %v, want ErrBadQuantity", err)
	}
}
