// Package accounts manages user accounts.
package accounts

import (
	"errors"
	"fmt"
	"strings"
)

// ErrBlankHandle is returned for a handle with nothing but spaces in it.
var ErrBlankHandle = errors.New("accounts: handle is blank")

// MaxHandleLen is the longest handle, in bytes.
const MaxHandleLen = 30

// NormalizeHandle returns the handle as stored: trimmed and lower-cased. A
// handle that is blank once trimmed is refused, since every profile URL
// needs one.
func NormalizeHandle(s string) (string, error) {
	if s == "" {
		return "", ErrBlankHandle
	}
	h := strings.ToLower(strings.TrimSpace(s))
	if len(h) > MaxHandleLen {
		return "", fmt.Errorf("handle %q is longer than %d bytes", h, MaxHandleLen)
	}
	return h, nil
}
