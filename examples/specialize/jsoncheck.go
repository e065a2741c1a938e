// Package jsoncheck is the example of grammar specialization: the function
// jsoncheck of Fig. 2 of "Input Algebras" (Gopinath, Nemati and Zeller),
// whose processing is reached only by JSON documents of one shape. Random
// documents of the JSON grammar rarely have it; documents of the JSON
// grammar specialized by "an empty key, and no null value"
// (fuzzharness/grammar/algebra) always do. See jsoncheck_test.go.
package jsoncheck

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
)

// The reasons Check stops before processing a document.
var (
	ErrInvalid    = errors.New("jsoncheck: not valid JSON")
	ErrNoEmptyKey = errors.New("jsoncheck: one key must be empty")
	ErrNullValue  = errors.New("jsoncheck: key value must not be null")
)

// A Summary is what processing a document found.
type Summary struct {
	Objects, Members, EmptyKeys int
}

// Check is the paper's jsoncheck: it fails if no key of any object in the
// document is empty, or if any key has a null value, and otherwise
// processes the document. Every member counts, duplicate keys included.
func Check(data []byte) (Summary, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var s scan
	if _, err := s.value(d); err != nil {
		return Summary{}, ErrInvalid
	}
	if _, err := d.Token(); err != io.EOF {
		return Summary{}, ErrInvalid
	}
	if s.EmptyKeys == 0 {
		return Summary{}, ErrNoEmptyKey
	}
	if s.nullValues > 0 {
		return Summary{}, ErrNullValue
	}
	return process(s), nil
}

// scan counts what Check looks at while it reads the document.
type scan struct {
	Summary
	nullValues int
}

// value reads one JSON value and reports whether it is null.
func (s *scan) value(d *json.Decoder) (null bool, err error) {
	tok, err := d.Token()
	if err != nil {
		return false, err
	}
	switch tok {
	case nil:
		return true, nil
	case json.Delim('{'):
		s.Objects++
		for d.More() {
			k, err := d.Token()
			if err != nil {
				return false, err
			}
			s.Members++
			if k == "" {
				s.EmptyKeys++
			}
			null, err := s.value(d)
			if err != nil {
				return false, err
			}
			if null {
				s.nullValues++
			}
		}
		_, err = d.Token() // '}'
		return false, err
	case json.Delim('['):
		for d.More() {
			if _, err := s.value(d); err != nil {
				return false, err
			}
		}
		_, err = d.Token() // ']'
		return false, err
	}
	return false, nil
}

// process is the code only documents of the right shape reach.
func process(s scan) Summary {
	return s.Summary
}
