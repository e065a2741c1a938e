// Package changes finds the functions a change of Go source touches: it
// reads unified diffs (ParseDiff), names the functions of a package the way
// the runtime and kfuzz's coverage name them (PackageFuncs), and maps the
// changed lines of a diff to the innermost functions that hold them
// (ChangedFuncs). kfuzz select uses it to pick the inputs predicted to reach
// what a diff changed.
package changes
