// Package gjsoncheck (in examples/thirdparty/gjson) checks the JSON query
// package github.com/tidwall/gjson against encoding/json: on every JSON
// text, gjson must agree with encoding/json on validity and on the value of
// the text, and its paths, iteration and modifiers must find the values
// that encoding/json's token stream places there.
//
// Its fuzz test, FuzzGJSON, drives Check through fuzzharness with texts of
// the RFC 8259 grammar (kfuzz's built-in grammar "json"), seeded with the
// grammar's 2-path covering forest and a few example documents. Run it
// with
//
//	go test -fuzz=FuzzGJSON ./gjson
//
// in the module examples/thirdparty. The subject, whose coverage kfuzz
// measures, is github.com/tidwall/gjson.
package gjsoncheck

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/tidwall/gjson"
)

// maxPaths bounds the number of paths that Check queries per text.
const maxPaths = 200

// A node is a JSON value as encoding/json's token stream gives it, with the
// members of objects in order and duplicate names kept.
type node struct {
	kind  byte     // one of { [ " 0 (number) t f n
	keys  []string // the names of the members, as gjson reads them (see unescape)
	elems []*node
	str   string // the string as gjson reads it, or the number's text
}

// value returns the value of n as gjson's Result.Value gives it: numbers
// are float64 as strconv.ParseFloat reads them (infinite when out of
// range), and of duplicate names in an object the first wins, as
// everywhere in gjson (encoding/json keeps the last).
func (n *node) value() any {
	switch n.kind {
	case '{':
		m := make(map[string]any, len(n.keys))
		for i, k := range n.keys {
			if _, dup := m[k]; !dup {
				m[k] = n.elems[i].value()
			}
		}
		return m
	case '[':
		a := make([]any, len(n.elems))
		for i, e := range n.elems {
			a[i] = e.value()
		}
		return a
	case '"':
		return n.str
	case '0':
		f, _ := strconv.ParseFloat(n.str, 64)
		return f
	case 't':
		return true
	case 'f':
		return false
	}
	return nil
}

// gjsonType is the gjson.Type of a node.
func (n *node) gjsonType() gjson.Type {
	switch n.kind {
	case '{', '[':
		return gjson.JSON
	case '"':
		return gjson.String
	case '0':
		return gjson.Number
	case 't':
		return gjson.True
	case 'f':
		return gjson.False
	}
	return gjson.Null
}

// parse reads data with encoding/json's token stream. It reads the strings
// and names again from their text, with unescape, checks that
// unescape(text, false) gives what encoding/json gives, and keeps what
// unescape(text, true) gives, which is what gjson should give.
func parse(data string) (*node, error) {
	p := &parser{data: data, dec: json.NewDecoder(strings.NewReader(data))}
	p.dec.UseNumber()
	n, err := p.value()
	if err != nil {
		return nil, err
	}
	if _, err := p.dec.Token(); !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("data after the value: %v", err)
	}
	return n, nil
}

type parser struct {
	data string
	dec  *json.Decoder
}

// token returns the next token and, for a string, its text in data.
func (p *parser) token() (json.Token, string, error) {
	start := p.dec.InputOffset()
	tok, err := p.dec.Token()
	if err != nil {
		return nil, "", err
	}
	s, ok := tok.(string)
	if !ok {
		return tok, "", nil
	}
	raw := strings.TrimLeft(p.data[start:p.dec.InputOffset()], " \t\r\n,:")
	if std := unescape(raw, false); std != s {
		return nil, "", fmt.Errorf("encoding/json reads the string %s as %q, but unescape as %q", raw, s, std)
	}
	return tok, unescape(raw, true), nil
}

func (p *parser) value() (*node, error) {
	tok, str, err := p.token()
	if err != nil {
		return nil, err
	}
	switch tok := tok.(type) {
	case json.Delim:
		n := &node{kind: byte(tok)}
		for p.dec.More() {
			if tok == '{' {
				_, k, err := p.token()
				if err != nil {
					return nil, err
				}
				n.keys = append(n.keys, k)
			}
			e, err := p.value()
			if err != nil {
				return nil, err
			}
			n.elems = append(n.elems, e)
		}
		if _, err := p.dec.Token(); err != nil {
			return nil, err
		}
		return n, nil
	case string:
		return &node{kind: '"', str: str}, nil
	case json.Number:
		return &node{kind: '0', str: string(tok)}, nil
	case bool:
		if tok {
			return &node{kind: 't'}, nil
		}
		return &node{kind: 'f'}, nil
	}
	return &node{kind: 'n'}, nil
}

// unescape returns the string that the JSON string literal lit denotes.
// Escaped surrogates that do not form a pair read as U+FFFD. With
// gjsonRule, a surrogate escape followed by any \u escape reads as one
// character, U+FFFD if the two do not form a pair, as gjson reads them:
// "\ud800\u0041" reads as "\ufffd", where encoding/json (and RFC 8259's
// reading of the escapes as UTF-16 code units) gives "\ufffdA".
func unescape(lit string, gjsonRule bool) string {
	s := lit[1 : len(lit)-1]
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' {
			b.WriteByte(s[i])
			continue
		}
		i++
		switch s[i] {
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'u':
			r := hex4(s[i+1:])
			i += 4
			if utf16.IsSurrogate(r) {
				next := rune(-1)
				if len(s) >= i+7 && s[i+1] == '\\' && s[i+2] == 'u' {
					next = hex4(s[i+3:])
				}
				switch pair := utf16.DecodeRune(r, next); {
				case next >= 0 && (gjsonRule || pair != utf8.RuneError):
					r = pair
					i += 6
				default:
					r = utf8.RuneError
				}
			}
			b.WriteRune(r)
		default: // " \ /
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

// hex4 returns the value of the four hexadecimal digits at the start of s.
func hex4(s string) rune {
	v, _ := strconv.ParseUint(s[:4], 16, 32)
	return rune(v)
}

// Check compares github.com/tidwall/gjson with encoding/json on data. It
// returns nil if they agree, and otherwise an error saying where they do
// not:
//
//   - Valid and ValidBytes give the same answer as encoding/json, on data
//     and on its prefixes cut at every structural character;
//   - the value of Parse(data) and ParseBytes(data) is that of
//     encoding/json (see node.value);
//   - for up to maxPaths values inside data, Get with the path of the value
//     (names escaped with Escape, the first of duplicate names; no path
//     starts with "..", gjson's prefix for JSON Lines) finds a result of
//     the right type and value, whose Raw text stands at its Index in
//     data, and whose Path leads to it again (unless the path passes
//     through an empty name, for which Path gives up); Parse(data).Get,
//     GetBytes, GetMany and the path with its last '.' a pipe find the
//     same result; the typed accessors (String, Float, Int, Uint, Bool,
//     Map, Array) and the iterators (All, Keys, Values) agree with it;
//   - "#" counts the elements of arrays, and the query "#.name" gives the
//     members of that name of the elements, with Paths that lead to them;
//   - the multipath [p,q] of two neighbouring paths gives their values;
//   - ForEach visits the members and elements in order, with their names;
//   - the modifiers @this (which keeps the white space after the value),
//     @valid, @ugly, @pretty, @tostr, @fromstr, @reverse, @flatten, @keys
//     and @values give what encoding/json says they should.
func Check(data string) error {
	for i := range len(data) {
		switch data[i] {
		case '{', '}', '[', ']', ',', ':', '"':
			if a, b := gjson.Valid(data[:i]), json.Valid([]byte(data[:i])); a != b {
				return fmt.Errorf("gjson.Valid(%q) = %v, encoding/json's %v", data[:i], a, b)
			}
		}
	}
	valid := json.Valid([]byte(data))
	if got := gjson.Valid(data); got != valid || gjson.ValidBytes([]byte(data)) != valid {
		return fmt.Errorf("gjson.Valid = %v, ValidBytes %v, encoding/json's Valid %v", got, gjson.ValidBytes([]byte(data)), valid)
	}
	if !valid || !utf8.ValidString(data) {
		// gjson keeps bytes that are not UTF-8 as they are, where
		// encoding/json replaces them; only validity is compared.
		return nil
	}
	root, err := parse(data)
	if err != nil {
		return fmt.Errorf("encoding/json's tokens of a valid text: %w", err)
	}
	if got, want := gjson.Parse(data).Value(), root.value(); !equal(got, want) {
		return fmt.Errorf("gjson.Parse(data).Value() = %#v, want %#v", got, want)
	}
	if got := gjson.ParseBytes([]byte(data)); !equal(got.Value(), root.value()) {
		return fmt.Errorf("gjson.ParseBytes(data).Value() = %#v", got.Value())
	}
	var paths []string
	if err := walk(data, root, nil, false, &paths); err != nil {
		return err
	}
	if err := checkMany(data, paths); err != nil {
		return err
	}
	return checkModifiers(data, root)
}

// walk checks the node n at the path of the components comps (the root
// if there are none), and the nodes inside it. If anon is set, the path
// passes through an empty name.
func walk(data string, n *node, comps []string, anon bool, paths *[]string) error {
	if len(*paths) >= maxPaths {
		return nil
	}
	res := gjson.Parse(data)
	path := strings.Join(comps, ".")
	if len(comps) > 0 {
		*paths = append(*paths, path)
		res = gjson.Get(data, path)
		if err := checkResult(data, path, anon, res, n); err != nil {
			return err
		}
		if err := checkAccessors(path, res, n); err != nil {
			return err
		}
		if err := checkVariants(data, comps, res); err != nil {
			return err
		}
	}
	if err := checkForEach(path, res, n); err != nil {
		return err
	}
	seen := map[string]bool{}
	for i, e := range n.elems {
		var comp string
		if n.kind == '[' {
			comp = strconv.Itoa(i)
		} else {
			k := n.keys[i]
			if seen[k] {
				continue // Get finds the first of duplicate names
			}
			seen[k] = true
			comp = gjson.Escape(k)
		}
		sub := append(slices.Clip(comps), comp)
		if jsonLines(strings.Join(sub, ".")) {
			continue
		}
		if err := walk(data, e, sub, anon || n.kind == '{' && comp == "", paths); err != nil {
			return err
		}
	}
	if n.kind == '[' && len(comps) > 0 && !jsonLines(path+".#") {
		if c := gjson.Get(data, path+".#"); c.Type != gjson.Number || c.Int() != int64(len(n.elems)) {
			return fmt.Errorf("Get(%q) = %v, want the count %d", path+".#", c, len(n.elems))
		}
		if err := checkQuery(data, path, n); err != nil {
			return err
		}
	}
	return nil
}

// member returns the first member of the object n named k, or nil.
func (n *node) member(k string) *node {
	if n.kind != '{' {
		return nil
	}
	if i := slices.Index(n.keys, k); i >= 0 {
		return n.elems[i]
	}
	return nil
}

// checkQuery checks the query path.#.name on the array n at path, for the
// first name of the first object in n: it gives the values of that member
// of the elements that have it, and their paths.
func checkQuery(data, path string, n *node) error {
	var name string
	found := false
	for _, e := range n.elems {
		if e.kind == '{' && len(e.keys) > 0 {
			name, found = e.keys[0], true
			break
		}
	}
	if !found {
		return nil
	}
	q := path + ".#." + gjson.Escape(name)
	res := gjson.Get(data, q)
	want := []any{}
	for _, e := range n.elems {
		if m := e.member(name); m != nil {
			want = append(want, m.value())
		}
	}
	if !equal(res.Value(), want) {
		return fmt.Errorf("Get(%q) = %s, want %#v", q, res.Raw, want)
	}
	paths := res.Paths(data)
	if paths == nil {
		return nil // "cannot be determined", as for names that need escaping
	}
	if len(paths) != len(want) {
		return fmt.Errorf("Get(%q).Paths(data) = %q, want %d paths", q, paths, len(want))
	}
	for i, p := range paths {
		if got := gjson.Get(data, p).Value(); !equal(got, want[i]) {
			return fmt.Errorf("Get(%q).Paths(data)[%d] = %q, where Get finds %#v, want %#v", q, i, p, got, want[i])
		}
	}
	return nil
}

// checkAccessors checks the typed accessors of the result res of n.
func checkAccessors(path string, res gjson.Result, n *node) error {
	if res.Type.String() == "" {
		return fmt.Errorf("Get(%q).Type.String() is empty", path)
	}
	switch n.kind {
	case '"':
		if res.String() != n.str {
			return fmt.Errorf("Get(%q).String() = %q, want %q", path, res.String(), n.str)
		}
	case '0':
		f := n.value().(float64)
		if res.Float() != f || res.Bool() != (f != 0) {
			return fmt.Errorf("Get(%q).Float() = %v, Bool() = %v; want %v", path, res.Float(), res.Bool(), f)
		}
		if g, err := strconv.ParseFloat(res.String(), 64); err == nil && g != f {
			return fmt.Errorf("Get(%q).String() = %q, which is not %v", path, res.String(), f)
		}
		if i, err := strconv.ParseInt(n.str, 10, 64); err == nil && res.Int() != i {
			return fmt.Errorf("Get(%q).Int() = %d, want %d", path, res.Int(), i)
		}
		if u, err := strconv.ParseUint(n.str, 10, 64); err == nil && res.Uint() != u {
			return fmt.Errorf("Get(%q).Uint() = %d, want %d", path, res.Uint(), u)
		}
	case 't', 'f':
		if !res.IsBool() || res.Bool() != (n.kind == 't') || res.String() != map[byte]string{'t': "true", 'f': "false"}[n.kind] {
			return fmt.Errorf("Get(%q) = %s: IsBool %v, Bool %v", path, res.Raw, res.IsBool(), res.Bool())
		}
	case '{':
		m := res.Map()
		want := n.value().(map[string]any)
		if len(m) != len(want) || !res.IsObject() {
			return fmt.Errorf("Get(%q).Map() has %d members, want %d", path, len(m), len(want))
		}
		for k, v := range m {
			if !equal(v.Value(), want[k]) {
				return fmt.Errorf("Get(%q).Map()[%q] = %s, want %#v", path, k, v.Raw, want[k])
			}
		}
	case '[':
		a := res.Array()
		if len(a) != len(n.elems) || !res.IsArray() {
			return fmt.Errorf("Get(%q).Array() has %d elements, want %d", path, len(a), len(n.elems))
		}
		for i, v := range a {
			if want := n.elems[i].value(); !equal(v.Value(), want) {
				return fmt.Errorf("Get(%q).Array()[%d] = %s, want %#v", path, i, v.Raw, want)
			}
		}
	}
	var keys, vals []string
	for k, v := range res.All() {
		keys, vals = append(keys, k.Raw), append(vals, v.Raw)
	}
	var keys2, vals2 []string
	for k := range res.Keys() {
		keys2 = append(keys2, k.Raw)
	}
	for v := range res.Values() {
		vals2 = append(vals2, v.Raw)
	}
	if !slices.Equal(keys, keys2) || !slices.Equal(vals, vals2) {
		return fmt.Errorf("Get(%q): All gives %q: %q, Keys and Values %q: %q", path, keys, vals, keys2, vals2)
	}
	return nil
}

// checkVariants checks that other spellings of the path of comps find
// res: with the last '.' a pipe, and through GetBytes.
func checkVariants(data string, comps []string, res gjson.Result) error {
	path := strings.Join(comps, ".")
	if b := gjson.GetBytes([]byte(data), path); b.Raw != res.Raw || b.Index != res.Index {
		return fmt.Errorf("GetBytes(%q) = %q at %d, but Get %q at %d", path, b.Raw, b.Index, res.Raw, res.Index)
	}
	n := len(comps)
	if n < 2 || comps[n-1] == "" || jsonLines(comps[0]+".") {
		return nil
	}
	piped := strings.Join(comps[:n-1], ".") + "|" + comps[n-1]
	if p := gjson.Get(data, piped); p.Raw != res.Raw {
		return fmt.Errorf("Get(%q) = %q, but Get(%q) = %q", piped, p.Raw, path, res.Raw)
	}
	return nil
}

// jsonLines reports whether gjson reads path as a path over JSON Lines:
// whether it starts with "..", as the path of a value under two empty names
// at the top does.
func jsonLines(path string) bool { return strings.HasPrefix(path, "..") }

// checkResult checks the result of Get(data, path) against the node n. If
// anon is set, the path passes through an empty name.
func checkResult(data, path string, anon bool, res gjson.Result, n *node) error {
	if !res.Exists() || res.Type != n.gjsonType() {
		return fmt.Errorf("Get(%q) = %v of type %v, want a %v", path, res.Raw, res.Type, n.gjsonType())
	}
	if got, want := res.Value(), n.value(); !equal(got, want) {
		return fmt.Errorf("Get(%q).Value() = %#v, want %#v", path, got, want)
	}
	if res.Index <= 0 || res.Index+len(res.Raw) > len(data) || data[res.Index:res.Index+len(res.Raw)] != res.Raw {
		return fmt.Errorf("Get(%q) has Raw %q, which is not at its Index %d", path, res.Raw, res.Index)
	}
	if !json.Valid([]byte(res.Raw)) {
		return fmt.Errorf("Get(%q) has Raw %q, which is not valid JSON", path, res.Raw)
	}
	if p := res.Path(data); p == "" {
		// Path returns "" for "cannot be determined", and so for the
		// path of an empty name.
		if !anon {
			return fmt.Errorf("Get(%q).Path(data) is empty", path)
		}
	} else if again := gjson.Get(data, p); again.Index != res.Index || again.Raw != res.Raw {
		return fmt.Errorf("Get(%q).Path(data) = %q, which finds %q at %d, not %q at %d",
			path, p, again.Raw, again.Index, res.Raw, res.Index)
	}
	if alt := gjson.Parse(data).Get(path); alt.Raw != res.Raw || alt.Type != res.Type {
		return fmt.Errorf("Parse(data).Get(%q) = %q, but Get(data, %[1]q) = %q", path, alt.Raw, res.Raw)
	}
	return nil
}

// checkForEach checks that ForEach visits the members or elements of n.
func checkForEach(path string, res gjson.Result, n *node) error {
	if n.kind != '{' && n.kind != '[' {
		return nil
	}
	var keys []string
	var vals []any
	res.ForEach(func(k, v gjson.Result) bool {
		keys = append(keys, k.Str)
		vals = append(vals, v.Value())
		return true
	})
	var want []any
	for _, e := range n.elems {
		want = append(want, e.value())
	}
	wantKeys := n.keys
	if n.kind == '[' {
		wantKeys = make([]string, len(n.elems))
	}
	if !slices.Equal(keys, wantKeys) || !equal(vals, want) {
		return fmt.Errorf("ForEach at %q visits %q: %#v, want %q: %#v", path, keys, vals, wantKeys, want)
	}
	return nil
}

// checkMany checks that GetMany finds what Get finds, and that the
// multipath [p,q] gives an array of what p and q give.
func checkMany(data string, paths []string) error {
	many := gjson.GetMany(data, paths...)
	for i, p := range paths {
		one := gjson.Get(data, p)
		if many[i].Raw != one.Raw || many[i].Index != one.Index {
			return fmt.Errorf("GetMany finds %q at %d for %q, Get %q at %d", many[i].Raw, many[i].Index, p, one.Raw, one.Index)
		}
		if i == 0 || !simple(p) || !simple(paths[i-1]) {
			continue
		}
		multi := "[" + paths[i-1] + "," + p + "]"
		want := []any{gjson.Get(data, paths[i-1]).Value(), one.Value()}
		if got := gjson.Get(data, multi); !equal(got.Value(), want) {
			return fmt.Errorf("Get(%q) = %s, want %#v", multi, got.Raw, want)
		}
	}
	return nil
}

// simple reports whether a path can stand in a multipath: it holds no
// escapes and no empty component.
func simple(path string) bool {
	return path != "" && !strings.Contains(path, "\\") && !strings.Contains(path, "..") &&
		!strings.HasPrefix(path, ".") && !strings.HasSuffix(path, ".")
}

// checkModifiers checks the modifiers that have a counterpart in
// encoding/json.
func checkModifiers(data string, root *node) error {
	const ws = " \t\r\n"
	if got := gjson.Get(data, "@this"); strings.TrimRight(got.Raw, ws) != strings.Trim(data, ws) {
		return fmt.Errorf("Get(@this) = %q", got.Raw)
	}
	if !gjson.Get(data, "@valid").Exists() {
		return errors.New("Get(@valid) does not exist for valid JSON")
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, []byte(data)); err != nil {
		return err
	}
	if got := gjson.Get(data, "@ugly").Raw; got != compact.String() {
		return fmt.Errorf("Get(@ugly) = %q, but encoding/json's Compact gives %q", got, compact.String())
	}
	pretty := gjson.Get(data, "@pretty").Raw
	if !json.Valid([]byte(pretty)) || !equal(gjson.Parse(pretty).Value(), root.value()) {
		return fmt.Errorf("Get(@pretty) = %q, which is not the same JSON value", pretty)
	}
	if got := gjson.Get(data, "@tostr|@fromstr"); !equal(got.Value(), root.value()) {
		return fmt.Errorf("Get(@tostr|@fromstr) = %q, not the same JSON value", got.Raw)
	}
	if got := gjson.Get(data, "@tostr"); got.Type != gjson.String || !equal(gjson.Parse(got.Str).Value(), root.value()) {
		return fmt.Errorf("Get(@tostr) = %q, not a string of the same JSON value", got.Raw)
	}
	switch root.kind {
	case '[':
		want := make([]any, len(root.elems))
		for i, e := range root.elems {
			want[len(want)-1-i] = e.value()
		}
		if got := gjson.Get(data, "@reverse"); !equal(got.Value(), want) {
			return fmt.Errorf("Get(@reverse) = %q, want %#v", got.Raw, want)
		}
		flat := []any{}
		for _, e := range root.elems {
			if e.kind == '[' {
				flat = append(flat, e.value().([]any)...)
			} else {
				flat = append(flat, e.value())
			}
		}
		if got := gjson.Get(data, "@flatten"); !equal(got.Value(), flat) {
			return fmt.Errorf("Get(@flatten) = %q, want %#v", got.Raw, flat)
		}
	case '{':
		keys := make([]any, len(root.keys))
		vals := make([]any, len(root.keys))
		for i, k := range root.keys {
			keys[i], vals[i] = k, root.elems[i].value()
		}
		if got := gjson.Get(data, "@keys"); !equal(got.Value(), keys) {
			return fmt.Errorf("Get(@keys) = %q, want %#v", got.Raw, keys)
		}
		if got := gjson.Get(data, "@values"); !equal(got.Value(), vals) {
			return fmt.Errorf("Get(@values) = %q, want %#v", got.Raw, vals)
		}
	}
	return nil
}

// equal is reflect.DeepEqual, except that it treats nil and empty slices
// alike and compares floats with ==, for which infinities are equal.
func equal(a, b any) bool {
	switch a := a.(type) {
	case float64:
		b, ok := b.(float64)
		return ok && (a == b || math.IsNaN(a) && math.IsNaN(b))
	case []any:
		b, ok := b.([]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for i := range a {
			if !equal(a[i], b[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		b, ok := b.(map[string]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for k, v := range a {
			w, ok := b[k]
			if !ok || !equal(v, w) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(a, b)
}
