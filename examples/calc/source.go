package calc

import "embed"

// Source holds the files of this example: its Go sources and tests and its
// testdata corpus. kfuzz demo copies them into a temporary module, so that
// the demo never touches the repository.
//
//go:embed *.go testdata
var Source embed.FS
