// Package gojsoncheck (in examples/thirdparty/gojson) checks the JSON
// package github.com/goccy/go-json, which claims to be a drop-in
// replacement of encoding/json, against encoding/json: on every JSON text,
// both must agree on validity, on the values that a text decodes to (into
// an interface value, with and without UseNumber, and into a struct), on
// the tokens of the text, on the text that Marshal, MarshalIndent,
// Compact and Indent write, and on which prefixes of the text are valid.
//
// Its fuzz test, FuzzGoJSON, drives Check through fuzzharness with texts of
// the RFC 8259 grammar (kfuzz's built-in grammar "json"), seeded with the
// grammar's 2-path covering forest and a few example documents. Run it
// with
//
//	go test -fuzz=FuzzGoJSON ./gojson
//
// in the module examples/thirdparty. The subject, whose coverage kfuzz
// measures, is github.com/goccy/go-json.
package gojsoncheck

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"

	gojson "github.com/goccy/go-json"
)

// A Document is a typed destination for decoding, with fields of the kinds
// of Go values that the JSON packages convert: strings, numbers of several
// sizes, booleans, pointers, arrays, slices, maps with string and integer
// keys, nested structs, raw messages, numbers and interface values.
type Document struct {
	Name   string             `json:"name"`
	Tags   []string           `json:"tags"`
	Score  float64            `json:"score"`
	OK     bool               `json:"ok"`
	Count  int                `json:"count,string"`
	Small  int8               `json:"small"`
	Big    uint64             `json:"big"`
	Ratio  *float32           `json:"ratio"`
	Pair   [2]int             `json:"pair"`
	ByID   map[int]string     `json:"by_id"`
	Meta   map[string]string  `json:"meta"`
	Items  []*Document        `json:"items"`
	Raw    json.RawMessage    `json:"raw"`
	Num    json.Number        `json:"num"`
	Any    any                `json:"any"`
	Inner  struct{ A, B int } `json:"inner"`
	Ignore string             `json:"-"`
}

// Check compares github.com/goccy/go-json with encoding/json on data. It
// returns nil if they agree, and otherwise an error saying where they do
// not:
//
//   - Valid gives the same answer;
//   - Unmarshal into an interface value, and a Decoder with UseNumber,
//     succeed or fail together and give equal values;
//   - Unmarshal into a Document succeeds or fails together, with equal
//     documents;
//   - the Decoders' Token streams are equal;
//   - Marshal, MarshalOf, MarshalIndent and an Encoder (with and without
//     HTML escaping, indented) write the same text for the decoded values,
//     and Compact, Indent and HTMLEscape of data the same text, or both
//     fail; UnmarshalOf decodes as Unmarshal;
//   - for the prefixes of data cut at every structural character, Valid and
//     Unmarshal agree too.
func Check(data []byte) error {
	if err := checkText(data); err != nil {
		return err
	}
	for i, c := range data {
		switch c {
		case '{', '}', '[', ']', ',', ':', '"':
			if err := agreeValid(data[:i]); err != nil {
				return fmt.Errorf("prefix %q: %w", data[:i], err)
			}
		}
	}
	return nil
}

// agreeValid compares Valid and Unmarshal on data.
func agreeValid(data []byte) error {
	if a, b := gojson.Valid(data), json.Valid(data); a != b {
		return fmt.Errorf("go-json's Valid = %v, encoding/json's %v", a, b)
	}
	var v1, v2 any
	e1, e2 := gojson.Unmarshal(data, &v1), json.Unmarshal(data, &v2)
	if (e1 == nil) != (e2 == nil) {
		return fmt.Errorf("go-json's Unmarshal: %v; encoding/json's: %v", e1, e2)
	}
	return nil
}

func checkText(data []byte) error {
	if err := agreeValid(data); err != nil {
		return err
	}
	var v1, v2 any
	ue1, ue2 := gojson.Unmarshal(data, &v1), json.Unmarshal(data, &v2)
	if ue1 == nil && !reflect.DeepEqual(v1, v2) {
		return fmt.Errorf("go-json's Unmarshal gives %#v, encoding/json's %#v", v1, v2)
	}
	n1, e1 := decodeNumbers(gojson.NewDecoder(bytes.NewReader(data)))
	n2, e2 := decodeNumbers(json.NewDecoder(bytes.NewReader(data)))
	if (e1 == nil) != (e2 == nil) || !reflect.DeepEqual(n1, n2) {
		return fmt.Errorf("go-json's Decoder with UseNumber gives %#v, %v; encoding/json's %#v, %v", n1, e1, n2, e2)
	}
	var d1, d2 Document
	de1, de2 := gojson.Unmarshal(data, &d1), json.Unmarshal(data, &d2)
	if (de1 == nil) != (de2 == nil) || de1 == nil && !reflect.DeepEqual(d1, d2) {
		return fmt.Errorf("go-json's Unmarshal into a Document gives %+v, %v; encoding/json's %+v, %v", d1, de1, d2, de2)
	}
	t1, e1 := tokens(gojson.NewDecoder(bytes.NewReader(data)))
	t2, e2 := tokens(json.NewDecoder(bytes.NewReader(data)))
	if (e1 == nil) != (e2 == nil) || !reflect.DeepEqual(t1, t2) {
		return fmt.Errorf("go-json's tokens are %v, %v; encoding/json's %v, %v", t1, e1, t2, e2)
	}
	compact := func(f func(*bytes.Buffer, []byte) error) func() ([]byte, error) {
		return func() ([]byte, error) {
			var b bytes.Buffer
			err := f(&b, data)
			return b.Bytes(), err
		}
	}
	if err := sameOutput("Compact", compact(gojson.Compact), compact(json.Compact)); err != nil {
		return err
	}
	indent := func(f func(*bytes.Buffer, []byte, string, string) error) func() ([]byte, error) {
		return func() ([]byte, error) {
			var b bytes.Buffer
			err := f(&b, data, ">", "\t")
			return b.Bytes(), err
		}
	}
	if err := sameOutput("Indent", indent(gojson.Indent), indent(json.Indent)); err != nil {
		return err
	}
	if !json.Valid(data) {
		return nil // nothing was decoded to encode again
	}
	html := func(f func(*bytes.Buffer, []byte)) func() ([]byte, error) {
		return func() ([]byte, error) {
			var b bytes.Buffer
			f(&b, data)
			return b.Bytes(), nil
		}
	}
	if err := sameOutput("HTMLEscape", html(gojson.HTMLEscape), html(json.HTMLEscape)); err != nil {
		return err
	}
	var vOf any
	if err := gojson.UnmarshalOf(data, &vOf); (err == nil) != (ue2 == nil) || err == nil && !reflect.DeepEqual(vOf, v2) {
		return fmt.Errorf("go-json's UnmarshalOf gives %#v, %v; encoding/json's Unmarshal %#v, %v", vOf, err, v2, ue2)
	}
	var dOf Document
	if err := gojson.UnmarshalOf(data, &dOf); (err == nil) != (de2 == nil) || err == nil && !reflect.DeepEqual(dOf, d2) {
		return fmt.Errorf("go-json's UnmarshalOf into a Document gives %+v, %v; encoding/json's Unmarshal %+v, %v", dOf, err, d2, de2)
	}
	for _, v := range []any{v2, n2, &d2} {
		if err := sameOutput("Marshal", func() ([]byte, error) { return gojson.Marshal(v) },
			func() ([]byte, error) { return json.Marshal(v) }); err != nil {
			return err
		}
		if err := sameOutput("MarshalOf", func() ([]byte, error) { return gojson.MarshalOf(v) },
			func() ([]byte, error) { return json.Marshal(v) }); err != nil {
			return err
		}
		for _, escape := range []bool{false, true} {
			enc := func(set func(io.Writer) encoder) func() ([]byte, error) {
				return func() ([]byte, error) {
					var b bytes.Buffer
					e := set(&b)
					e.SetEscapeHTML(escape)
					e.SetIndent("", " ")
					err := e.Encode(v)
					return b.Bytes(), err
				}
			}
			if err := sameOutput(fmt.Sprintf("Encoder (SetEscapeHTML(%v), SetIndent)", escape),
				enc(func(w io.Writer) encoder { return gojson.NewEncoder(w) }),
				enc(func(w io.Writer) encoder { return json.NewEncoder(w) })); err != nil {
				return err
			}
		}
		if err := sameOutput("MarshalIndent", func() ([]byte, error) { return gojson.MarshalIndent(v, "", "  ") },
			func() ([]byte, error) { return json.MarshalIndent(v, "", "  ") }); err != nil {
			return err
		}
	}
	return nil
}

// sameOutput runs the go-json and the encoding/json version of a function
// and compares their results.
func sameOutput(name string, goJSON, stdJSON func() ([]byte, error)) error {
	b1, e1 := goJSON()
	b2, e2 := stdJSON()
	if (e1 == nil) != (e2 == nil) || e1 == nil && !bytes.Equal(b1, b2) {
		return fmt.Errorf("go-json's %s gives %q, %v; encoding/json's %q, %v", name, b1, e1, b2, e2)
	}
	return nil
}

// encoder is what the two packages' Encoders have in common.
type encoder interface {
	Encode(any) error
	SetEscapeHTML(bool)
	SetIndent(prefix, indent string)
}

// decoder is what the two packages' Decoders have in common.
type decoder interface {
	Decode(any) error
	Token() (json.Token, error)
	More() bool
}

// decodeNumbers decodes all values of a stream with UseNumber.
func decodeNumbers(d interface {
	decoder
	UseNumber()
}) ([]any, error) {
	d.UseNumber()
	var vs []any
	for {
		var v any
		err := d.Decode(&v)
		if err == io.EOF {
			return vs, nil
		}
		if err != nil {
			return vs, err
		}
		vs = append(vs, v)
	}
}

// tokens returns the token stream of a Decoder.
func tokens(d decoder) ([]json.Token, error) {
	var ts []json.Token
	for {
		t, err := d.Token()
		if errors.Is(err, io.EOF) {
			return ts, nil
		}
		if err != nil {
			return ts, err
		}
		ts = append(ts, t)
	}
}
