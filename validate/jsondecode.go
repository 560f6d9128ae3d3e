package validate

import (
	"bytes"
	"encoding/json"
)

// DecodeJSON decodes the JSON value data begins with as json.Decoder with
// UseNumber does: numbers as json.Number (an integer beyond 2^53
// survives), arrays as []any, objects as map[string]any. The common value
// is read by fastJSON (jsondecode_fast.go).
func DecodeJSON(data []byte) (any, error) {
	if v, ok := fastJSON(data); ok {
		return v, nil
	}
	return decodeJSONPlain(data)
}

// decodeJSONPlain is DecodeJSON through encoding/json.
func decodeJSONPlain(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	err := dec.Decode(&v)
	return v, err
}
