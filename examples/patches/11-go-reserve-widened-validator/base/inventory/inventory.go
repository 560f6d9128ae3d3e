// Package inventory tracks how many units of an item are in stock.
package inventory

import (
	"errors"
	"fmt"
)

// ErrBadQuantity is returned for a reservation of zero or fewer units.
var ErrBadQuantity = errors.New("inventory: quantity must be positive")

// ErrOutOfStock is returned when a reservation exceeds the stock.
var ErrOutOfStock = errors.New("inventory: not enough stock")

// Reserve takes qty units out of stock for an order and returns the stock
// left. A reservation is always of one unit or more: a negative reservation
// would add stock that no delivery brought.
func Reserve(stock, qty int) (int, error) {
	if qty <= 0 {
		return stock, fmt.Errorf("reserve %d: %w", qty, ErrBadQuantity)
	}
	if qty > stock {
		return stock, fmt.Errorf("reserve %d of %d: %w", qty, stock, ErrOutOfStock)
	}
	return stock - qty, nil
}

// Restock adds delivered units to the stock.
func Restock(stock, delivered int) (int, error) {
	if delivered <= 0 {
		return stock, fmt.Errorf("restock %d: %w", delivered, ErrBadQuantity)
	}
	return stock + delivered, nil
}
