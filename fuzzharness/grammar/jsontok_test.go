package grammar

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestValidTokensMatchDecoder checks that the fast tokenizer for valid JSON
// returns the tokens, More answers and offsets of a json.Decoder with
// UseNumber: on escapes, surrogate pairs, invalid UTF-8, numbers, literals,
// nesting and the grammar files in testdata.
func TestValidTokensMatchDecoder(t *testing.T) {
	inputs := []string{
		`{"<start>": ["a\"b\\c\/d\u00e9\ud83d\ude00", "<x>"], "<x>": [["<a>", {"prob": 0.5e-3}], [], -12, 3.25E+2, true, false, null]}`,
		"{\"<s>\": [\"\xff\xfe invalid \xc3\"]}",
		" \t\r\n[ 1 , [ ] , { } , \"\" ]\n",
		`"lone"`,
		`0`,
	}
	// The grammars, and the valid documents of the JSON test suite.
	err := filepath.WalkDir("testdata", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(path) != ".json" {
			return err
		}
		data, err := os.ReadFile(path)
		if json.Valid(data) {
			inputs = append(inputs, string(data))
		}
		return err
	})
	if err != nil || len(inputs) < 50 {
		t.Fatalf("%d inputs: %v", len(inputs), err)
	}
	for _, in := range inputs {
		data := []byte(in)
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		fast := &validTokens{data: data}
		for step := 0; ; step++ {
			if dm, fm := dec.More(), fast.More(); dm != fm {
				t.Fatalf("%.40q step %d: More %v, decoder %v", in, step, fm, dm)
			}
			dt, derr := dec.Token()
			if derr != nil {
				if fast.off < len(bytes.TrimRight(data, " \t\r\n")) {
					t.Fatalf("%.40q: decoder ended at step %d, fast tokenizer at offset %d of %d", in, step, fast.off, len(data))
				}
				break
			}
			ft, ferr := fast.Token()
			if ferr != nil || !reflect.DeepEqual(dt, ft) {
				t.Fatalf("%.40q step %d: token %#v (%v), decoder %#v", in, step, ft, ferr, dt)
			}
			if do, fo := dec.InputOffset(), fast.InputOffset(); do != fo {
				t.Fatalf("%.40q step %d: offset %d, decoder %d", in, step, fo, do)
			}
		}
	}
}
