// Package stdtest exercises standard-library parsers: encoding/json,
// net/url, encoding/csv and go/parser (with go/scanner).
package stdtest

import (
	"encoding/csv"
	"encoding/json"
	"go/parser"
	"go/token"
	"net/url"
	"strings"
)

// Inputs are "kind:text"; Exercise dispatches on the kind.
var Inputs = []string{
	`json:{"a":[1,2.5,{"b":null}],"c":"\u00e9"}`,
	`json:[true,false,"x"]`,
	`json:"just a string"`,
	`json:{"open":`,
	`url:http://user:pw@example.com:8080/p/a%20th?q=1&r=two#frag`,
	`url:mailto:someone@example.com`,
	`url:/relative/only`,
	`url:http://[::1]:namedport`,
	"csv:a,b,c\n1,\"two, quoted\",3\n",
	"csv:x,\"unterminated\n",
	"go:package p\n\nfunc F(x int) int { return x * 2 }\n",
	"go:package p\n\nvar v = []string{\"a\", `b`}\n",
	"go:package p\n\nfunc {\n",
}

// Exercise parses text with the parser its kind names.
func Exercise(in string) {
	kind, text, _ := strings.Cut(in, ":")
	switch kind {
	case "json":
		if json.Valid([]byte(text)) {
			var v any
			json.Unmarshal([]byte(text), &v)
		}
	case "url":
		if u, err := url.Parse(text); err == nil {
			u.Query()
			_ = u.String()
		}
	case "csv":
		csv.NewReader(strings.NewReader(text)).ReadAll()
	case "go":
		parser.ParseFile(token.NewFileSet(), "in.go", text, parser.ParseComments)
	}
}
