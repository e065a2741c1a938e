package islatest

import (
	"bytes"
	"encoding/csv"
	"encoding/xml"
	"errors"
	"io"
	"strings"
)

// XMLOracle asks encoding/xml whether the tags of a document are balanced:
// a strict Decoder reports mismatched tags. It cannot decide documents
// that declare namespaces (two prefixes may then name one namespace, which
// the Decoder accepts but XML does not) or that fail for other reasons.
func XMLOracle(doc []byte) (balanced, decided bool) {
	if bytes.Contains(doc, []byte("xmlns")) {
		return false, false
	}
	d := xml.NewDecoder(bytes.NewReader(doc))
	d.Strict = true
	for {
		_, err := d.Token()
		if err == io.EOF {
			return true, true
		}
		if err != nil {
			var se *xml.SyntaxError
			if errors.As(err, &se) && strings.Contains(se.Msg, "closed by") {
				return false, true
			}
			return false, false
		}
	}
}

// CSVOracle asks encoding/csv whether all records of a file have the same
// number of fields (FieldsPerRecord 0 takes it from the first record).
func CSVOracle(file []byte) (equal, decided bool) {
	r := csv.NewReader(bytes.NewReader(file))
	r.FieldsPerRecord = 0
	_, err := r.ReadAll()
	switch {
	case err == nil:
		return true, true
	case errors.Is(err, csv.ErrFieldCount):
		return false, true
	}
	return false, false
}
