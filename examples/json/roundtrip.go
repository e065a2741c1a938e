// Package jsoncheck (in examples/json) checks that encoding/json reads and
// writes JSON text consistently: a document that json.Valid accepts decodes,
// re-encodes, and decodes again to the same value. Its fuzz tests drive the
// check with documents of the RFC 8259 grammar (kfuzz's built-in grammar
// "json") through fuzzharness, and with plain strings as a baseline.
package jsoncheck

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
)

// ErrInvalid is returned by RoundTrip for text that json.Valid rejects.
var ErrInvalid = errors.New("jsoncheck: not valid JSON")

// RoundTrip checks one JSON text. It returns ErrInvalid if json.Valid
// rejects data, and otherwise an error describing any inconsistency:
// decoding fails, trailing data is found, re-encoding fails, the re-encoded
// text is not valid or decodes to a different value, the token stream
// describes a different value, or decoding into a Document fails other than
// with a type error or succeeds but does not encode again. Numbers are
// decoded as json.Number so that their text survives exactly.
func RoundTrip(data []byte) error {
	if !json.Valid(data) {
		return ErrInvalid
	}
	v, err := decode(data)
	if err != nil {
		return fmt.Errorf("decoding valid JSON: %w", err)
	}
	out, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("re-encoding: %w", err)
	}
	if !json.Valid(out) {
		return fmt.Errorf("re-encoded text %q is not valid", out)
	}
	v2, err := decode(out)
	if err != nil {
		return fmt.Errorf("decoding the re-encoded text %q: %w", out, err)
	}
	if !reflect.DeepEqual(v, v2) {
		return fmt.Errorf("the re-encoded text %q decodes to %#v, want %#v", out, v2, v)
	}
	tv, err := decodeTokens(data)
	if err != nil {
		return fmt.Errorf("reading the tokens of valid JSON: %w", err)
	}
	if !reflect.DeepEqual(v, tv) {
		return fmt.Errorf("the tokens describe %#v, want %#v", tv, v)
	}
	var doc Document
	if err := json.Unmarshal(data, &doc); err == nil {
		out, err := json.Marshal(&doc)
		if err != nil || !json.Valid(out) {
			return fmt.Errorf("re-encoding the Document %+v: %q, %v", doc, out, err)
		}
	} else if !isTypeError(err) {
		return fmt.Errorf("decoding valid JSON into a Document: %w", err)
	}
	return nil
}

// A Document is a typed destination for decoding. Valid JSON that does not
// fit it fails with a type error; JSON that does must encode again. Its
// fields cover the kinds of Go values encoding/json converts.
type Document struct {
	Name     string            `json:"name"`
	Tags     []string          `json:"tags"`
	Stars    float64           `json:"stars"`
	OK       bool              `json:"ok"`
	Count    int               `json:"count,string"`
	Small    int8              `json:"small"`
	Unsigned uint16            `json:"unsigned"`
	Ratio    *float32          `json:"ratio"`
	Pair     [2]int            `json:"pair"`
	ByID     map[int]string    `json:"by_id"`
	Meta     map[string]string `json:"meta"`
	Level    Level             `json:"level"`
	Items    []*Document       `json:"items"`
	Raw      json.RawMessage   `json:"raw"`
	Num      json.Number       `json:"num"`
	Any      any               `json:"any"`
}

// A Level is "low", "medium" or "high" in JSON; it decodes and encodes
// itself as text.
type Level int

var levels = []string{"low", "medium", "high"}

// UnmarshalText implements encoding.TextUnmarshaler.
func (l *Level) UnmarshalText(text []byte) error {
	for i, name := range levels {
		if string(text) == name {
			*l = Level(i)
			return nil
		}
	}
	return fmt.Errorf("unknown level %q", text)
}

// MarshalText implements encoding.TextMarshaler.
func (l Level) MarshalText() ([]byte, error) {
	if l < 0 || int(l) >= len(levels) {
		return nil, fmt.Errorf("level %d out of range", int(l))
	}
	return []byte(levels[l]), nil
}

// isTypeError reports whether err is one that valid JSON may cause when
// decoded into a Document: a value of the wrong type or out of range.
func isTypeError(err error) bool {
	var ute *json.UnmarshalTypeError
	msg := err.Error()
	return errors.As(err, &ute) ||
		strings.Contains(msg, "invalid use of ,string struct tag") || // "count": "twelve"
		strings.Contains(msg, "invalid number literal") || // "num": "" (a json.Number from a string)
		strings.Contains(msg, "unknown level")
}

// decodeTokens builds the value of data from its token stream.
func decodeTokens(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := tokenValue(dec)
	if err != nil {
		return nil, err
	}
	if tok, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("token %v after the value (%v)", tok, err)
	}
	return v, nil
}

func tokenValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch tok {
	case json.Delim('{'):
		m := map[string]any{}
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return nil, err
			}
			key, ok := k.(string)
			if !ok {
				return nil, fmt.Errorf("object key %v is not a string", k)
			}
			if m[key], err = tokenValue(dec); err != nil {
				return nil, err
			}
		}
		_, err = dec.Token()
		return m, err
	case json.Delim('['):
		a := []any{}
		for dec.More() {
			x, err := tokenValue(dec)
			if err != nil {
				return nil, err
			}
			a = append(a, x)
		}
		_, err = dec.Token()
		return a, err
	}
	return tok, nil
}

// decode decodes one JSON value with numbers as json.Number and fails on
// trailing data.
func decode(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("trailing data after the value (%v)", err)
	}
	return v, nil
}
