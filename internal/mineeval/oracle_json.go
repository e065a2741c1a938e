package mineeval

import (
	"encoding/json"
	"unicode/utf8"
)

// AcceptJSON reports whether input is a JSON text: encoding/json's Valid, and
// valid UTF-8. Valid alone takes invalid UTF-8 inside strings (Unmarshal
// replaces it with U+FFFD), which RFC 8259 section 8.1 and the reference
// grammar do not.
func AcceptJSON(input []byte) bool {
	return json.Valid(input) && utf8.Valid(input)
}
