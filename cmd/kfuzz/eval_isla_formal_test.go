package main

import (
	"encoding/json"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Every formalization of ISLa's sources solves with all outputs valid
// under the validator and the Go oracle: 10 outputs each with -short;
// otherwise 100 for CSV and XML and 30 for the slower Scriptsize-C, reST
// and TAR ("kfuzz eval isla -formal -n 100" gives 100 of each).
func TestEvalIslaFormal(t *testing.T) {
	runs := []struct {
		subjects string
		n        int
	}{{"csv,xml", 100}, {"c,rest,tar", 30}}
	if testing.Short() {
		runs = []struct {
			subjects string
			n        int
		}{{"csv,rest,c,tar,xml", 10}}
	}
	for _, run := range runs {
		out, errOut, code := runEval(t, "-formal", "-n", strconv.Itoa(run.n), "-time", "5m", "-subjects", run.subjects, "-json", "-z3=false")
		if code != 0 {
			t.Fatalf("code %d: %s", code, errOut)
		}
		var rows []islaEvalRow
		if err := json.Unmarshal([]byte(out), &rows); err != nil {
			t.Fatalf("%v:\n%s", err, out)
		}
		if len(rows) != len(strings.Split(run.subjects, ",")) {
			t.Fatalf("%d rows for %s", len(rows), run.subjects)
		}
		for _, r := range rows {
			if r.Outputs != run.n || r.Valid != r.Outputs || r.Validator != r.Outputs {
				t.Errorf("%s: %d outputs, %d valid, %d by the validator: %v %s", r.Subject, r.Outputs, r.Valid, r.Validator, r.Failures, r.Stopped)
			}
			if r.Oracle != "" && r.OracleOK != r.Outputs {
				t.Errorf("%s: %d of %d outputs valid by %s: %v", r.Subject, r.OracleOK, r.Outputs, r.Oracle, r.Failures)
			}
		}
	}
}

// The XML oracle of the formalizations rejects what encoding/xml accepts
// but XML namespaces forbid.
func TestFormalXMLOracle(t *testing.T) {
	for in, want := range map[string]string{
		`<a xmlns:p="u"><p:b p:c="1"/></a>`: "",
		`<p:a/>`:                            "prefix p is not declared",
		`<a p:c="1"/>`:                      "prefix p is not declared",
		`<a c="1" c="2"/>`:                  "attribute c twice",
		`<a xmlns:xmlns="u"/>`:              "reserved prefix xmlns",
		`<a><b></a></b>`:                    "element <b> closed by </a>",
	} {
		err := formalXMLOracle([]byte(in), nil)
		switch {
		case want == "" && err != nil:
			t.Errorf("%s: %v", in, err)
		case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
			t.Errorf("%s: error %v, want %q", in, err, want)
		}
	}
}

// An Earley item limit in isla check names the flag that raises it.
func TestISLACheckItemLimit(t *testing.T) {
	dir := writeFiles(t, map[string]string{"in.xml": "<a>" + strings.Repeat("<b>x</b>", 50) + "</a>"})
	balance := filepath.Join("..", "..", "fuzzharness", "isla", "testdata", "xml-balance.isla")
	out, _, code := runISLA(t, "check", "-grammar", "xml", "-constraint", balance, "-max-items", "50", filepath.Join(dir, "in.xml"))
	if code != 1 || !strings.Contains(out, "raise -max-items") {
		t.Errorf("code %d, out %q", code, out)
	}
}
