package main

import (
	"bytes"
	"encoding/csv"
	"encoding/xml"
	"fmt"
	"io"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// formalSubjects are ISLa's own formalizations (src/isla_formalizations of
// ISLa's sources), grammars and constraints re-expressed in
// fuzzharness/isla/testdata/formal; "kfuzz eval isla -formal" solves them.
// ISLa's TAR grammar is ambiguous where NUL-padded fields meet (a NUL ends
// one field or starts the next; ISLa parses TAR with a hand-written parser),
// so TAR outputs are validated on the solver's derivation tree.
var formalSubjects = []islaSubject{
	{name: "csv", label: "CSV column count (csv.py)", grammar: "csv.bnf",
		files: []string{"csv-colno.isla"}, oracle: "encoding/csv", check: formalCSVOracle},
	{name: "rest", label: "reST underlines + def-links + no-redef + numbering (rest.py)", grammar: "rest.bnf",
		files: []string{"rest-length-underline.isla", "rest-def-links.isla", "rest-no-redef.isla", "rest-list-numbering.isla"}},
	{name: "c", label: "Scriptsize-C def-use + no-redef (scriptsizec.py)", grammar: "scriptsizec.bnf",
		files: []string{"scriptsizec-def-use.isla", "scriptsizec-no-redef.isla"}, oracle: "scope checker", check: scriptsizeCOracle},
	{name: "tar", label: "TAR lengths + checksum + links (tar.py)", grammar: "tar.bnf",
		files: []string{"tar.isla"}, oracle: "archive/tar", check: tarOracleCheck, evalTree: true},
	{name: "xml", label: "XML well-formed + no attr redef + namespaces (xml_lang.py)", grammar: "xml.bnf",
		files:  []string{"xml-wellformedness.isla", "xml-no-attr-redef.isla", "xml-attribute-namespace.isla", "xml-tag-namespace.isla"},
		oracle: "encoding/xml + namespaces", check: formalXMLOracle},
}

// formalCSVOracle reads the records with encoding/csv, ";" separating
// fields as in ISLa's CSV grammar; the reader requires as many fields in
// every record as in the first.
func formalCSVOracle(in []byte, _ *grammar.Tree) error {
	r := csv.NewReader(bytes.NewReader(in))
	r.Comma = ';'
	_, err := r.ReadAll()
	return err
}

// formalXMLOracle reads the document with a strict encoding/xml Decoder
// (well-formed: tags balanced and matching), then checks what encoding/xml
// leaves to applications: no attribute name twice in a tag, and every
// namespace prefix of an element or attribute name declared by an xmlns:
// attribute of that element or an enclosing one (xmlns itself is reserved
// and cannot be declared).
func formalXMLOracle(in []byte, t *grammar.Tree) error {
	if err := xmlOracleCheck(in, t); err != nil {
		return err
	}
	d := xml.NewDecoder(bytes.NewReader(in))
	var scopes []map[string]bool
	declared := func(p string) bool {
		for _, s := range scopes {
			if s[p] {
				return true
			}
		}
		return false
	}
	for {
		tok, err := d.RawToken()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			scope := map[string]bool{}
			seen := map[xml.Name]bool{}
			for _, a := range tok.Attr {
				if seen[a.Name] {
					return fmt.Errorf("element %s: attribute %s twice", qname(tok.Name), qname(a.Name))
				}
				seen[a.Name] = true
				if a.Name.Space == "xmlns" {
					if a.Name.Local == "xmlns" {
						return fmt.Errorf("element %s declares the reserved prefix xmlns", qname(tok.Name))
					}
					scope[a.Name.Local] = true
				}
			}
			scopes = append(scopes, scope)
			if p := tok.Name.Space; p != "" && !declared(p) {
				return fmt.Errorf("element %s: prefix %s is not declared", qname(tok.Name), p)
			}
			for _, a := range tok.Attr {
				if p := a.Name.Space; p != "" && p != "xmlns" && !declared(p) {
					return fmt.Errorf("element %s: attribute %s: prefix %s is not declared", qname(tok.Name), qname(a.Name), p)
				}
			}
		case xml.EndElement:
			scopes = scopes[:len(scopes)-1]
		}
	}
}

// qname writes a raw name as in the document: prefix:local.
func qname(n xml.Name) string {
	if n.Space == "" {
		return n.Local
	}
	return n.Space + ":" + n.Local
}
