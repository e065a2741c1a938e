//go:build !unix

package measure

import "os/exec"

// detach does nothing where a fuzz target cannot serve as an oracle.
func detach(cmd *exec.Cmd) {}
