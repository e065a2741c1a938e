// Package urlcheck (in examples/url) checks Go's net/url against RFC 3986:
// every absolute URI that the RFC's grammar derives (kfuzz's built-in
// grammar "url", narrowed where net/url is stricter) parses into the
// components it was derived with, prints back to text that parses to the
// same URL, and survives the package's other conversions: binary
// marshalling, redaction, the request URI, query parsing and encoding,
// reference resolution and escaping.
//
// Its fuzz test, FuzzURL, drives Check through fuzzharness with inputs of
// the url grammar, seeded with the grammar's 2-path covering forest and a
// few example URLs; the grammar's derivation tree of each input gives the
// expected components (PartsOf). Run it with
//
//	go test -fuzz=FuzzURL ./examples/url
//
// The subject, whose coverage kfuzz measures, is net/url.
package urlcheck

import (
	"errors"
	"fmt"
	"net/url"
	"reflect"
	"strings"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// Parts are the components of an absolute URI as written in its text,
// before net/url decodes them. The Has fields tell an absent component
// from an empty one.
type Parts struct {
	Scheme string
	// HasAuthority is set if the hierarchical part starts with "//".
	HasAuthority bool
	HasUser      bool
	User         string // the userinfo before the '@'
	Host         string // the host without the port
	HasPort      bool
	Port         string
	// Path is the path in any of its forms; Rootless is set if it is a
	// rootless path, which net/url keeps as the opaque part.
	Path     string
	Rootless bool
	HasQuery bool
	Query    string
	HasFrag  bool
	Fragment string
}

// PartsOf returns the parts of a derivation tree of the url grammar (kfuzz's
// built-in grammar "url"), read from the subtrees of its nonterminals
// <scheme>, <userinfo>, <host>, <port>, the four path forms, <query> and
// <fragment>.
func PartsOf(t *grammar.Tree) (Parts, error) {
	var p Parts
	if t == nil {
		return p, errors.New("urlcheck: no derivation tree")
	}
	found := false
	t.Walk(func(u *grammar.Tree) bool {
		if u.Node.Kind != grammar.KindRef {
			return true
		}
		switch u.Node.Name {
		case "scheme":
			p.Scheme, found = u.String(), true
		case "authority":
			p.HasAuthority = true
			return true // <userinfo>, <host> and <port> are inside
		case "userinfo":
			p.HasUser, p.User = true, u.String()
		case "host":
			p.Host = u.String()
		case "port":
			p.HasPort, p.Port = true, u.String()
		case "path-abempty", "path-absolute", "path-empty":
			p.Path = u.String()
		case "path-rootless":
			p.Path, p.Rootless = u.String(), true
		case "query":
			p.HasQuery, p.Query = true, u.String()
		case "fragment":
			p.HasFrag, p.Fragment = true, u.String()
		default:
			return true
		}
		return false // components do not nest
	})
	if !found {
		return p, fmt.Errorf("urlcheck: the tree of %q has no <scheme>: not a tree of the url grammar", t)
	}
	return p, nil
}

// relativeRefs are resolved against every URL: the examples of RFC 3986
// section 5.4 and a few more.
var relativeRefs = []string{
	"", "g", "./g", "g/", "/g", "//g", "?y", "g?y", "#s", "g#s", "g?y#s", ";x", "g;x", "g;x?y#s",
	".", "./", "..", "../", "../g", "../..", "../../g", "../../../g", "/./g", "/../g", "g.", ".g",
	"g..", "..g", "./../g", "./g/.", "g/./h", "g/../h", "g;x=1/./y", "g;x=1/../y", "g?y/./x", "g#s/../x",
	"a%2Fb/../c", "//u:p@h:1/p?q", "?", "#",
}

// Check parses raw with net/url and checks what it makes of it. If want is
// not nil, raw must be the text of those parts and the URL must hold them,
// decoded. In any case a URL that parses must
//
//   - print (URL.String) to text that parses to an equal URL, which prints
//     the same again;
//   - survive MarshalBinary and UnmarshalBinary;
//   - redact (URL.Redacted) to a URL with the same user name and no password
//     other than "xxxxx";
//   - give the same path and query back from ParseRequestURI(RequestURI());
//   - have a query that ParseQuery reads without error unless it holds a ';',
//     and whose values Values.Encode writes as a query with the same values,
//     and Values.Get, Has, Set, Add and Del read and change as documented;
//   - resolve every reference in a fixed list of relative references to an
//     absolute URL that prints to text that parses to an equal URL;
//   - resolve them with URL.Parse as with ResolveReference;
//   - join path elements (URL.JoinPath, JoinPath) to a URL whose path ends
//     with them and that prints to text that parses to an equal URL (with
//     exceptions, see checkJoinPath);
//   - have a path and fragment that PathEscape and QueryEscape round-trip;
//   - fail to parse, with a *url.Error holding the right error, when an
//     invalid escape is appended, or (if want is given and its host is a
//     name) when a character that no host may hold is.
//
// Check returns nil if all holds, and otherwise an error saying what did
// not; if want is nil, it also returns the error of url.Parse.
func Check(raw string, want *Parts) error {
	u, err := url.Parse(raw)
	if err != nil {
		if want != nil {
			return fmt.Errorf("a URI of the grammar does not parse: %w", err)
		}
		return err
	}
	if want != nil {
		if err := checkParts(u, raw, want); err != nil {
			return err
		}
	}
	if err := roundTrip(u, "String"); err != nil {
		return err
	}
	bin, err := u.MarshalBinary()
	if err != nil {
		return fmt.Errorf("MarshalBinary: %w", err)
	}
	var ub url.URL
	if err := ub.UnmarshalBinary(bin); err != nil {
		return fmt.Errorf("UnmarshalBinary(%q): %w", bin, err)
	}
	if !reflect.DeepEqual(u, &ub) {
		return fmt.Errorf("UnmarshalBinary(MarshalBinary()) = %#v, want %#v", ub, *u)
	}
	if err := checkRedacted(u); err != nil {
		return err
	}
	if err := checkRequestURI(u); err != nil {
		return err
	}
	if err := checkQuery(u); err != nil {
		return err
	}
	for _, ref := range relativeRefs {
		r, err := url.Parse(ref)
		if err != nil {
			return fmt.Errorf("relative reference %q: %w", ref, err)
		}
		res := u.ResolveReference(r)
		if p, err := u.Parse(ref); err != nil || !reflect.DeepEqual(p, res) {
			return fmt.Errorf("URL.Parse(%q) = %v, %v, but ResolveReference gives %v", ref, p, err, res)
		}
		if !res.IsAbs() || res.Scheme != u.Scheme {
			return fmt.Errorf("resolving %q gives %q, not absolute with scheme %q", ref, res, u.Scheme)
		}
		if err := roundTrip(res, fmt.Sprintf("the resolution of %q:", ref)); err != nil {
			return err
		}
	}
	if err := checkJoinPath(raw, u); err != nil {
		return err
	}
	if err := checkErrors(raw, want); err != nil {
		return err
	}
	if p := url.PathEscape(u.Path); unescape(url.PathUnescape, p) != u.Path {
		return fmt.Errorf("PathUnescape(PathEscape(%q)) differs", u.Path)
	}
	if q := url.QueryEscape(u.Fragment); unescape(url.QueryUnescape, q) != u.Fragment {
		return fmt.Errorf("QueryUnescape(QueryEscape(%q)) differs", u.Fragment)
	}
	return nil
}

// unescape calls fn and returns its result, or a text that no string
// compares equal to in Check when fn fails.
func unescape(fn func(string) (string, error), s string) string {
	v, err := fn(s)
	if err != nil {
		return "\x00error: " + err.Error()
	}
	return v
}

// roundTrip checks that u prints to text that parses to an equal URL.
func roundTrip(u *url.URL, what string) error {
	s := u.String()
	u2, err := url.Parse(s)
	if err != nil {
		return fmt.Errorf("%s %q does not parse: %w", what, s, err)
	}
	if !reflect.DeepEqual(u, u2) {
		return fmt.Errorf("%s %q parses to %#v, want %#v", what, s, *u2, *u)
	}
	if s2 := u2.String(); s2 != s {
		return fmt.Errorf("%s %q parses to a URL that prints as %q", what, s, s2)
	}
	return nil
}

// checkParts compares the URL u parsed from raw with the parts it was
// derived with.
func checkParts(u *url.URL, raw string, p *Parts) error {
	if s := p.text(); s != raw {
		return fmt.Errorf("the parts %+v make %q, not the input", *p, s)
	}
	var errs []error
	check := func(what, got, want string) {
		if got != want {
			errs = append(errs, fmt.Errorf("%s = %q, want %q", what, got, want))
		}
	}
	check("Scheme", u.Scheme, strings.ToLower(p.Scheme))
	if p.HasUser {
		if u.User == nil {
			errs = append(errs, fmt.Errorf("no User, want %q", p.User))
		} else {
			name, pass, hasPass := strings.Cut(p.User, ":")
			check("Username", u.User.Username(), mustUnescape(name))
			got, ok := u.User.Password()
			check("Password", got, mustUnescape(pass))
			if ok != hasPass {
				errs = append(errs, fmt.Errorf("password set: %v, want %v", ok, hasPass))
			}
		}
	} else if u.User != nil {
		errs = append(errs, fmt.Errorf("User = %q, want none", u.User))
	}
	host := mustUnescape(p.Host)
	hostname := strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if p.HasPort {
		host += ":" + p.Port
	}
	check("Host", u.Host, host)
	check("Hostname()", u.Hostname(), hostname)
	check("Port()", u.Port(), p.Port)
	if p.Rootless {
		check("Opaque", u.Opaque, p.Path)
		check("Path", u.Path, "")
	} else {
		check("Opaque", u.Opaque, "")
		check("Path", u.Path, mustUnescape(p.Path))
		check("EscapedPath()", u.EscapedPath(), p.Path)
	}
	check("RawQuery", u.RawQuery, p.Query)
	if u.ForceQuery != (p.HasQuery && p.Query == "") {
		errs = append(errs, fmt.Errorf("ForceQuery = %v, but the query is %q", u.ForceQuery, p.Query))
	}
	check("Fragment", u.Fragment, mustUnescape(p.Fragment))
	check("EscapedFragment()", u.EscapedFragment(), p.Fragment)
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("%q parses to the wrong components: %w", raw, err)
	}
	return nil
}

// text returns the URI text of the parts.
func (p *Parts) text() string {
	var b strings.Builder
	b.WriteString(p.Scheme)
	b.WriteByte(':')
	if p.HasAuthority {
		b.WriteString("//")
		if p.HasUser {
			b.WriteString(p.User)
			b.WriteByte('@')
		}
		b.WriteString(p.Host)
		if p.HasPort {
			b.WriteByte(':')
			b.WriteString(p.Port)
		}
	}
	b.WriteString(p.Path)
	if p.HasQuery {
		b.WriteByte('?')
		b.WriteString(p.Query)
	}
	if p.HasFrag {
		b.WriteByte('#')
		b.WriteString(p.Fragment)
	}
	return b.String()
}

// mustUnescape decodes the percent-encoding of s, which the grammar writes
// correctly; a failure shows in the comparison.
func mustUnescape(s string) string { return unescape(url.PathUnescape, s) }

// checkRedacted checks that Redacted keeps the user name and hides the
// password.
func checkRedacted(u *url.URL) error {
	red := u.Redacted()
	r, err := url.Parse(red)
	if err != nil {
		return fmt.Errorf("Redacted() = %q does not parse: %w", red, err)
	}
	if (r.User == nil) != (u.User == nil) {
		return fmt.Errorf("Redacted() = %q has user %v, want %v", red, r.User, u.User)
	}
	if u.User == nil {
		return nil
	}
	if r.User.Username() != u.User.Username() {
		return fmt.Errorf("Redacted() = %q has user name %q, want %q", red, r.User.Username(), u.User.Username())
	}
	_, hasPass := u.User.Password()
	if pass, ok := r.User.Password(); ok != hasPass || ok && pass != "xxxxx" {
		return fmt.Errorf("Redacted() = %q keeps the password %q", red, pass)
	}
	return nil
}

// checkRequestURI checks that a hierarchical URL's request URI gives the
// path and query back.
func checkRequestURI(u *url.URL) error {
	if u.Opaque != "" {
		return nil
	}
	ru := u.RequestURI()
	r, err := url.ParseRequestURI(ru)
	if err != nil {
		return fmt.Errorf("ParseRequestURI(RequestURI() = %q): %w", ru, err)
	}
	path := u.Path
	if path == "" {
		path = "/"
	}
	if r.Path != path || r.RawQuery != u.RawQuery {
		return fmt.Errorf("ParseRequestURI(RequestURI() = %q) has path %q and query %q, want %q and %q",
			ru, r.Path, r.RawQuery, path, u.RawQuery)
	}
	return nil
}

// joinElems are the path elements that checkJoinPath joins.
var joinElems = []string{"a b", "../c", "d/"}

// checkJoinPath checks URL.JoinPath and JoinPath. JoinPath keeps an empty
// path relative: it joins "" and "c" to "c". String writes such a path
// after the host with a '/', so that the text parses with the path "/c";
// and if the host is empty too, right after "//", so that the text parses
// with the host "c": url.JoinPath("s:", "c") is "s://c"
// (TestJoinPathEmpty). An opaque URL is exempt too: String ignores its
// path.
func checkJoinPath(raw string, u *url.URL) error {
	j := u.JoinPath(joinElems...)
	s, err := url.JoinPath(raw, joinElems...)
	if err != nil || s != j.String() {
		return fmt.Errorf("JoinPath(%q) = %q, %v, but URL.JoinPath gives %q", raw, s, err, j)
	}
	if u.Opaque != "" {
		return nil
	}
	if !strings.HasSuffix(j.Path, "c/d/") {
		return fmt.Errorf("URL.JoinPath(%q) = %q, whose path does not end with c/d/", joinElems, j)
	}
	if u.Path != "" {
		return roundTrip(j, "URL.JoinPath")
	}
	if u.Host == "" {
		return nil
	}
	r, err := url.Parse(s)
	if err != nil || r.Path != "/"+j.Path || r.Host != j.Host {
		return fmt.Errorf("URL.JoinPath gives %q, which parses to %v, %v", s, r, err)
	}
	return nil
}

// checkErrors checks that raw with an invalid escape appended, and with an
// invalid character appended to its host, fail to parse with the right
// errors.
func checkErrors(raw string, want *Parts) error {
	bad := raw + "#%"
	_, err := url.Parse(bad)
	var ue *url.Error
	var ee url.EscapeError
	if !errors.As(err, &ue) || ue.Op != "parse" || ue.URL != bad || !errors.As(err, &ee) ||
		!strings.HasSuffix(ue.Error(), ee.Error()) ||
		ue.Timeout() || ue.Temporary() || ue.Unwrap() != ee {
		return fmt.Errorf("url.Parse(%q) fails with %#v, want a *url.Error holding an EscapeError", bad, err)
	}
	if want == nil || !want.HasAuthority || strings.HasPrefix(want.Host, "[") {
		return nil
	}
	p := *want
	p.Host += "{"
	bad = p.text()
	_, err = url.Parse(bad)
	var he url.InvalidHostError
	if !errors.As(err, &he) || he.Error() == "" {
		return fmt.Errorf("url.Parse(%q) fails with %#v, want an InvalidHostError", bad, err)
	}
	return nil
}

// checkQuery checks ParseQuery, URL.Query and Values.Encode.
func checkQuery(u *url.URL) error {
	v, err := url.ParseQuery(u.RawQuery)
	if (err != nil) != strings.Contains(u.RawQuery, ";") {
		return fmt.Errorf("ParseQuery(%q): %v", u.RawQuery, err)
	}
	if q := u.Query(); !reflect.DeepEqual(q, v) {
		return fmt.Errorf("Query() = %v but ParseQuery(%q) = %v", q, u.RawQuery, v)
	}
	for k, vs := range v {
		if !v.Has(k) || v.Get(k) != vs[0] {
			return fmt.Errorf("Values %v: Has(%q) = %v, Get = %q", v, k, v.Has(k), v.Get(k))
		}
	}
	w := url.Values{}
	for k := range v {
		w.Set(k, "first")
		w.Add(k, "second")
		if w.Get(k) != "first" || len(w[k]) != 2 {
			return fmt.Errorf("Values.Set and Add of %q give %q", k, w[k])
		}
		w.Del(k)
		if w.Has(k) {
			return fmt.Errorf("Values.Del(%q) leaves %q", k, w[k])
		}
	}
	enc := v.Encode()
	v2, err := url.ParseQuery(enc)
	if err != nil || !reflect.DeepEqual(v, v2) {
		return fmt.Errorf("ParseQuery(%q) = %v, %v; want %v, the values of query %q", enc, v2, err, v, u.RawQuery)
	}
	return nil
}
