package gjsoncheck

import (
	"encoding/json"
	"testing"

	"github.com/tidwall/gjson"
)

func TestUnescape(t *testing.T) {
	for _, tc := range []struct{ lit, std, gjson string }{
		{`"a\"\\\/\b\f\n\r\t"`, "a\"\\/\b\f\n\r\t", "a\"\\/\b\f\n\r\t"},
		{`"\u00e9\ud83d\ude00"`, "é😀", "é😀"},
		{`"\ud800"`, "\ufffd", "\ufffd"},
		{`"\ud800x"`, "\ufffdx", "\ufffdx"},
		{`"\ud800\u0041"`, "\ufffdA", "\ufffd"},
		{`"\udc00\ud800\udc00"`, "\ufffd\U00010000", "\ufffd\ufffd"},
		{`"\ud800\\u0041"`, "\ufffd\\u0041", "\ufffd\\u0041"},
	} {
		var std string
		if err := json.Unmarshal([]byte(tc.lit), &std); err != nil || std != tc.std {
			t.Fatalf("the test is wrong: encoding/json reads %s as %q, %v", tc.lit, std, err)
		}
		if got := unescape(tc.lit, false); got != tc.std {
			t.Errorf("unescape(%s, false) = %q, want %q", tc.lit, got, tc.std)
		}
		if got := unescape(tc.lit, true); got != tc.gjson {
			t.Errorf("unescape(%s, true) = %q, want %q", tc.lit, got, tc.gjson)
		}
	}
}

// TestSurrogateRule pins the reading of surrogate escapes that Check
// expects of gjson (see unescape): a surrogate escape followed by a \u
// escape that does not complete it swallows that escape. If gjson reads
// these as encoding/json does, the rule can go.
func TestSurrogateRule(t *testing.T) {
	for _, lit := range []string{`"\ud800\u0041"`, `"\udc00\ud800\udc00"`} {
		if got, want := gjson.Parse(lit).Str, unescape(lit, true); got != want {
			t.Errorf("gjson reads %s as %q, want %q", lit, got, want)
		}
	}
}
