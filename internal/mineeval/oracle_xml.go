package mineeval

import "unicode/utf8"

// AcceptXML reports whether input is one XML element in the language of
// kfuzz's built-in grammar xml (the ISLa paper's XML grammar): an element is
// "<id/>" or "<id>content</id>", optionally with attributes id="text"
// after the name, each preceded by one space; content is a non-empty
// sequence of elements and text. Names are ASCII (a letter or '_', then
// letters, digits, '_', '-', '.'), optionally with one namespace prefix.
// Text is non-empty and made of XML characters other than '<', '&', '"' and
// ']', and of the references &lt; &gt; &amp; &quot; &apos;, &#100; to
// &#999; and &#x100; to &#xFFF;. As in the grammar, opening and closing
// tags are not matched by name. It is a hand-written recognizer, not an XML
// parser: encoding/xml would also take comments, processing instructions,
// CDATA sections and single-quoted attributes, which the subject leaves out.
func AcceptXML(input []byte) bool {
	return whole(input, xmlElement)
}

func xmlElement(r *reader) bool {
	if !r.enter() {
		return false
	}
	defer r.leave()
	if !r.eat("<") || !xmlID(r) {
		return false
	}
	for r.eat(" ") {
		if !xmlID(r) || !r.eat(`="`) || !xmlText(r) || !r.eat(`"`) {
			return false
		}
	}
	if r.eat("/>") {
		return true
	}
	if !r.eat(">") {
		return false
	}
	items := 0
	for !r.at("</") {
		switch {
		case r.at("<"):
			if !xmlElement(r) {
				return false
			}
		case !xmlText(r):
			return false
		}
		items++
	}
	r.i += 2
	return items > 0 && xmlID(r) && r.eat(">")
}

// xmlID reads a name with an optional namespace prefix.
func xmlID(r *reader) bool {
	if !xmlName(r) {
		return false
	}
	if r.eat(":") {
		return xmlName(r)
	}
	return true
}

func xmlName(r *reader) bool {
	if !r.eatIf(func(c byte) bool { return isAlpha(c) || c == '_' }) {
		return false
	}
	r.eatAll(func(c byte) bool { return isAlpha(c) || isDigit(c) || c == '_' || c == '-' || c == '.' })
	return true
}

// xmlText reads one or more text characters and references.
func xmlText(r *reader) bool {
	n := 0
	for {
		if r.at("&") {
			if !xmlReference(r) {
				return false
			}
			n++
			continue
		}
		c, size := utf8.DecodeRune(r.s[r.i:])
		if size == 0 || c == utf8.RuneError && size == 1 || !isXMLTextChar(c) {
			return n > 0
		}
		r.i += size
		n++
	}
}

// isXMLTextChar reports whether c is an XML character (XML 1.0 production
// [2]) other than '"', '&', '<' and ']'.
func isXMLTextChar(c rune) bool {
	switch {
	case c == '\t' || c == '\n' || c == '\r':
		return true
	case c < 0x20 || c == '"' || c == '&' || c == '<' || c == ']':
		return false
	case c <= 0xD7FF:
		return true
	case 0xE000 <= c && c <= 0xFFFD:
		return true
	}
	return 0x10000 <= c && c <= 0x10FFFF
}

func xmlReference(r *reader) bool {
	for _, e := range []string{"&lt;", "&gt;", "&amp;", "&quot;", "&apos;"} {
		if r.eat(e) {
			return true
		}
	}
	if r.eat("&#x") {
		upperHex := func(c byte) bool { return isDigit(c) || 'A' <= c && c <= 'F' }
		return r.eatIf(func(c byte) bool { return c != '0' && upperHex(c) }) &&
			r.eatIf(upperHex) && r.eatIf(upperHex) && r.eat(";")
	}
	if r.eat("&#") {
		return r.eatIf(func(c byte) bool { return c != '0' && isDigit(c) }) &&
			r.eatIf(isDigit) && r.eatIf(isDigit) && r.eat(";")
	}
	return false
}
