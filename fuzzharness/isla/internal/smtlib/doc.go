// Package smtlib holds the values of the SMT-LIB theories of integers and
// Unicode strings as kfuzz's ISLa packages compute with them: sorts and
// values (Value, Integer), strings in the internal form that maps input
// bytes to characters one-to-one (FromBytes, ToBytes), and regular
// expressions of sort RegLan decided by Brzozowski derivatives (Regex,
// Matcher). The validator (package isla) evaluates SMT-LIB terms with them;
// the solver (package isla/solver) builds and samples regular expressions and
// inverts equations with them.
package smtlib
