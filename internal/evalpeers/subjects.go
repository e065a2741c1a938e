package evalpeers

import "strings"

// A Subject is one parser that the tools fuzz: a copy of an example's
// parser (or of the standard-library parser an example checks), a target
// function that runs it on one input, and what each tool needs to generate
// its inputs.
type Subject struct {
	// Name names the subject; the copy is the package subj/Name of the
	// scratch module, and its harness the package fz/Name.
	Name string
	// Sources are the files of the copy: paths relative to the kfuzz
	// module root, or to GOROOT/src if they start with "$GOROOT/".
	Sources []string
	// Package is the package name of the copy.
	Package string
	// Grammar is the kfuzz built-in grammar of the inputs.
	Grammar string
	// Constraints are ISLa files (relative to the kfuzz module root)
	// conjoined into the constraint of the kfuzz-constraints tool; none
	// means the subject has no constraint.
	Constraints []string
	// ABNF is the grammar for go-abnf, with Rule its start rule; Tape says
	// whether go-abnf can build its byte-tape generator (only for a
	// grammar without recursion) or fuzzes the seed of Generate.
	ABNF, Rule string
	Tape       bool
	// Examples are the seed inputs of the tools that take seeds.
	Examples []string
}

// Subjects are the evaluated subjects.
var Subjects = []Subject{
	{
		Name:     "calc",
		Sources:  []string{"examples/calc/calc.go"},
		Package:  "calc",
		Grammar:  "expr",
		ABNF:     calcABNF,
		Rule:     "expr",
		Examples: []string{"1+2*3", "(x-1)/y%3", "--z+-x"},
	},
	{
		Name:        "scriptc",
		Sources:     []string{"examples/scriptc/parse.go", "examples/scriptc/scriptc.go"},
		Package:     "scriptc",
		Grammar:     "scriptsizec",
		Constraints: []string{"fuzzharness/isla/testdata/scriptsizec-def-use.isla", "fuzzharness/isla/testdata/scriptsizec-no-redef.isla"},
		ABNF:        scriptcABNF,
		Rule:        "program",
		Examples:    []string{"int a = 1;while (a < 10) {a = a + 1;}", "int b;if (b) b = 2; else {int c = b - 1;}", "do ; while (0);"},
	},
	{
		Name:    "json",
		Sources: []string{"$GOROOT/encoding/json/scanner.go"},
		Package: "json",
		Grammar: "json",
		ABNF:    jsonABNF,
		Rule:    "json-text",
		Examples: []string{
			`{"name": "kfuzz", "tags": ["go", "fuzz"], "stars": 1.5e3, "ok": true, "count": "12"}`,
			`[null, -0.25, "\u00e9\n", {"": []}]`,
		},
	},
	{
		Name:        "csv",
		Sources:     []string{"$GOROOT/encoding/csv/reader.go"},
		Package:     "csv",
		Grammar:     "csv",
		Constraints: []string{"fuzzharness/isla/testdata/csv-columns.isla"},
		ABNF:        csvABNF,
		Rule:        "file",
		Tape:        true,
		Examples: []string{
			"name,qty,note\r\nnut,3,\"M4, steel\"\r\nbolt,10,\"say \"\"hi\"\"\"\r\n",
			"\"a\r\nb\",\"c\rd\",\"\"\r\n,,\r\n\"\"",
		},
	},
}

// SubjectNamed returns the subject called name, or nil.
func SubjectNamed(name string) *Subject {
	for i := range Subjects {
		if Subjects[i].Name == name {
			return &Subjects[i]
		}
	}
	return nil
}

// abnf writes a grammar with the CR LF line ends that ABNF (RFC 5234)
// requires.
func abnf(lines ...string) string { return strings.Join(lines, "\r\n") + "\r\n" }

// The ABNF grammars (RFC 5234, with RFC 7405's case-sensitive strings),
// written for this evaluation from the same languages as kfuzz's built-in
// grammars. Rule names avoid the core rules (DIGIT, HEXDIG, CHAR), which
// go-abnf does not let a grammar redefine.
var (
	calcABNF = abnf(
		`expr = product *( ( "+" / "-" ) product )`,
		`product = unary *( ( "*" / "/" / "%" ) unary )`,
		`unary = "++" unary / "--" unary / "+" unary / "-" unary / "(" expr ")" / var / number`,
		`var = %x78-7A`,
		`number = 1*%x30-39`,
	)
	scriptcABNF = abnf(
		`program = 1*item`,
		`item = statement / declaration`,
		`block = "{" *item "}"`,
		`declaration = %s"int " id " = " expr ";" / %s"int " id ";"`,
		`statement = block / %s"if " paren " " statement [ %s" else " statement ] / %s"while " paren " " statement / %s"do " statement %s" while " paren ";" / expr ";" / ";"`,
		`paren = "(" expr ")"`,
		`expr = id " = " expr / sum [ " < " sum ]`,
		`sum = term *( ( " + " / " - " ) term )`,
		`term = id / int / paren`,
		`id = %x61-7A`,
		`int = "0" / %x31-39 *%x30-39`,
	)
	jsonABNF = abnf(
		`json-text = ws value ws`,
		`value = object / array / string / number / %s"true" / %s"false" / %s"null"`,
		`object = "{" ws [ member *( ws "," ws member ) ws ] "}"`,
		`member = string ws ":" ws value`,
		`array = "[" ws [ value *( ws "," ws value ) ws ] "]"`,
		`number = [ "-" ] int [ frac ] [ exp ]`,
		`int = "0" / %x31-39 *dig`,
		`frac = "." 1*dig`,
		`exp = ( %x65 / %x45 ) [ "-" / "+" ] 1*dig`,
		`string = %x22 *jchar %x22`,
		`jchar = unescaped / %x5C ( %x22 / %x5C / %x2F / %x62 / %x66 / %x6E / %x72 / %x74 / %x75 4hex )`,
		`unescaped = %x20-21 / %x23-5B / %x5D-7E / %xA0-FFFF`,
		`hex = %x30-39 / %x41-46 / %x61-66`,
		`dig = %x30-39`,
		`ws = *( %x20 / %x09 / %x0A / %x0D )`,
	)
	csvABNF = abnf(
		`file = record *( eol record ) [ eol ]`,
		`eol = %x0D %x0A / %x0A`,
		`record = field *( "," field )`,
		`field = escaped / non-escaped`,
		`escaped = %x22 *( textdata / "," / %x0D / %x0A / %x22 %x22 ) %x22`,
		`non-escaped = *textdata`,
		`textdata = %x20-21 / %x23-2B / %x2D-7E`,
	)
)
