// Package islearn mines ISLa constraints from sample inputs, after ISLearn
// (Steinhöfel and Zeller, "Input Invariants", ESEC/FSE 2022, section 5).
//
// Learn instantiates the patterns of a catalog with the nonterminals and
// texts of the positive samples' derivation trees, keeps the instances that
// accept (nearly) every positive sample and are not vacuous, and ranks them
// by how many negative samples they reject (specificity), then by how many
// random grammar inputs they reject, then by simplicity.
//
// # Catalogs
//
// A catalog is a text file of patterns (DefaultCatalog is built in; see
// catalog.isc for its patterns: def-use with and without scopes, balance
// of matched parts, equal parts, length and count relations, existence of
// a part inside an element, fixed and existing strings). An entry is
//
//	pattern NAME
//	where {a} child {b}
//	ISLa formula with placeholders {a}, {b}, {string}, ...
//
// Lines starting with # before and between entries are comments. A
// placeholder {name} stands for a nonterminal name (written inside angle
// brackets in the formula, as <{a}>), or, if the name is "string" or
// "string" and digits, for a text from the samples, written inside a
// string literal. The where lines restrict the values, from what the
// positive samples show:
//
//	where {a} child {b}    an <a> is a direct child of a <b>
//	where {a} in {b}       an <a> is strictly below a <b>
//	where {a} != {b}       a and b are different nonterminals
//	where {a} < {b}        a sorts before b by name (for symmetric patterns:
//	                       one instance per pair)
//	where {a} sharestext {b}   some text of an <a> is also the text of a <b>
//	where {s} textof {a}   s is one of the most frequent short texts of <a>
//	where {strings} textsof {a}   the set {strings} holds the texts of <a>
//	where {strings} notextof {a}  ... but none of the texts of <a>
//
// In the formula, {strings VAR} stands for (VAR = "s1" or VAR = "s2" ...),
// one equation per text of the set (false if it is empty): ISLearn's
// predefined names, such as the functions a program uses but never defines.
//
// Every nonterminal placeholder takes only nonterminals that occur in the
// positive samples. ParseCatalog reports errors with file:line:col
// positions.
package islearn
