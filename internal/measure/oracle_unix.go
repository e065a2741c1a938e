//go:build unix

package measure

import (
	"os/exec"
	"syscall"
)

// detach puts the process of cmd in a process group of its own, so that an
// interrupt from the terminal (Ctrl-C) reaches the tool, which then stops
// its oracle, and not the test processes, whose deaths would look like
// crashes. A test process whose tool dies ends too: its input ends.
func detach(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }
