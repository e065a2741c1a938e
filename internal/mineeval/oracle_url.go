package mineeval

import (
	"net/url"
	"strings"
)

// AcceptURL reports whether input is an absolute URI that Go's net/url
// parses. The oracle is net/url.Parse, which must succeed with a non-empty
// scheme, together with the checks of RFC 3986 that net/url leaves out
// (it is lenient so as to read URLs found in the wild):
//
//   - every byte is an RFC 3986 character (unreserved, reserved or '%'), and
//     every '%' starts a percent-encoded octet "%HH";
//   - '[' and ']' appear only around the host, '#' at most once, and '@'
//     at most once in the authority;
//   - a host that is not bracketed holds no ':' (net/url takes "a:1:2"
//     with the host "a:1"), and the port is digits only.
//
// net/url itself checks the scheme's characters, the port, the IPv6
// address between brackets (with net/netip) and which octets a host may
// percent-encode. A zone identifier in an IPv6 literal ("[fe80::1%25en0]")
// is accepted, as net/url does; the reference grammar derives none.
func AcceptURL(input []byte) bool {
	s := string(input)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case isAlpha(c) || isDigit(c) || strings.IndexByte("-._~:/?#[]@!$&'()*+,;=", c) >= 0:
		case c == '%':
			if i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
				return false
			}
		default:
			return false
		}
	}
	if strings.Count(s, "#") > 1 {
		return false
	}
	u, err := url.Parse(s)
	if err != nil || u.Scheme == "" {
		return false
	}
	// The authority, if any, is what follows "scheme://" up to the path,
	// query or fragment; brackets may appear only there, around the host.
	rest := s[len(u.Scheme)+1:]
	authority := ""
	if strings.HasPrefix(rest, "//") {
		rest = rest[2:]
		end := strings.IndexAny(rest, "/?#")
		if end < 0 {
			end = len(rest)
		}
		authority, rest = rest[:end], rest[end:]
	}
	if strings.ContainsAny(rest, "[]") {
		return false
	}
	if strings.Count(authority, "@") > 1 {
		return false
	}
	userinfo, hostport, found := strings.Cut(authority, "@")
	if !found {
		userinfo, hostport = "", authority
	}
	if strings.ContainsAny(userinfo, "[]") {
		return false
	}
	if strings.HasPrefix(hostport, "[") {
		end := strings.IndexByte(hostport, ']')
		if end < 0 || strings.ContainsAny(hostport[end+1:], "[]") {
			return false
		}
		return validPort(hostport[end+1:])
	}
	if strings.ContainsAny(hostport, "[]") {
		return false
	}
	_, port, hasPort := strings.Cut(hostport, ":")
	return !hasPort || validPort(":"+port)
}

// validPort reports whether s is empty or ':' and digits.
func validPort(s string) bool {
	if s == "" {
		return true
	}
	if s[0] != ':' {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}
