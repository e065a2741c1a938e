// Command kfuzz makes Go's native fuzzing grammar-aware: it generates and parses
// structured inputs, measures per-input coverage, learns which input features
// reach which functions, and writes targeted seeds into testdata/fuzz.
//
// Usage:
//
//	kfuzz <command> [arguments]
//
// Run "kfuzz help" for the list of commands and "kfuzz help <command>" for the
// flags of one command.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// A command is one kfuzz subcommand. Commands register themselves with
// register from an init function in their own file.
type command struct {
	name  string // e.g. "gen" or "grammar check"
	usage string // argument synopsis, e.g. "-grammar FILE|NAME [-n N]"
	short string // one-line description
	// run executes the command. args excludes the command name. Output goes to
	// env.stdout; diagnostics to env.stderr.
	run func(env *env, args []string) error
}

// env is what a command may touch: its streams and working directory.
type env struct {
	stdout io.Writer
	stderr io.Writer
	stdin  io.Reader
}

var commands = map[string]*command{}

// renamed maps the old names of renamed commands to their new names. For
// one release an old name still runs its command, after a notice on stderr.
var renamed = map[string]string{
	"cover-set": "kpath-seeds",
}

func register(c *command) {
	if _, dup := commands[c.name]; dup {
		panic("kfuzz: duplicate command " + c.name)
	}
	commands[c.name] = c
}

// exitError carries a specific exit status out of a command.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit status %d", e.code)
	}
	return e.err.Error()
}
func (e *exitError) Unwrap() error { return e.err }

// errUsage is returned by a command whose arguments are wrong; the usage of
// the command has already been printed.
var errUsage = errors.New("usage")

func main() {
	e := &env{stdout: os.Stdout, stderr: os.Stderr, stdin: os.Stdin}
	os.Exit(run(e, os.Args[1:]))
}

// run dispatches args to a command and returns the process exit status.
func run(e *env, args []string) int {
	if len(args) == 0 {
		printHelp(e.stderr)
		return 2
	}
	if args[0] == "help" || args[0] == "-h" || args[0] == "-help" || args[0] == "--help" {
		if len(args) > 1 {
			if c, _, old := lookup(args[1:]); c != nil {
				noteRenamed(e, old, c)
				fmt.Fprintf(e.stdout, "usage: kfuzz %s %s\n\n%s\n", c.name, c.usage, c.short)
				return 0
			}
			if len(args) == 2 && len(subcommands(args[1])) > 0 {
				printGroup(e.stdout, args[1])
				return 0
			}
			fmt.Fprintf(e.stderr, "kfuzz help: unknown command %q\n", strings.Join(args[1:], " "))
			return 2
		}
		printHelp(e.stdout)
		return 0
	}
	c, rest, old := lookup(args)
	noteRenamed(e, old, c)
	if c == nil {
		if len(subcommands(args[0])) > 0 {
			return runGroup(e, args[0], args[1:])
		}
		fmt.Fprintf(e.stderr, "kfuzz: unknown command %q\nRun 'kfuzz help' for usage.\n", args[0])
		return 2
	}
	err := c.run(e, rest)
	if err == nil {
		return 0
	}
	var xe *exitError
	switch {
	case errors.Is(err, errUsage), errors.Is(err, flag.ErrHelp):
		return 2
	case errors.As(err, &xe):
		if xe.err != nil {
			fmt.Fprintf(e.stderr, "kfuzz %s: %v\n", c.name, xe.err)
		}
		return xe.code
	default:
		fmt.Fprintf(e.stderr, "kfuzz %s: %v\n", c.name, err)
		return 1
	}
}

// lookup finds the longest command name that prefixes args ("grammar check"
// before "grammar"), old names of renamed commands included; old is the old
// name args used, if any.
func lookup(args []string) (c *command, rest []string, old string) {
	for n := min(2, len(args)); n >= 1; n-- {
		name := strings.Join(args[:n], " ")
		if c := commands[name]; c != nil {
			return c, args[n:], ""
		}
		if c := commands[renamed[name]]; c != nil {
			return c, args[n:], name
		}
	}
	return nil, nil, ""
}

// noteRenamed tells on stderr that the command c was run by its old name,
// if old is not empty.
func noteRenamed(e *env, old string, c *command) {
	if old != "" && c != nil {
		fmt.Fprintf(e.stderr, "kfuzz %s is now kfuzz %s; the old name goes away in the next release\n", old, c.name)
	}
}

// subcommands returns the sorted names of the commands in group, the
// commands named "group <name>" (e.g. "isla check" in group "isla").
func subcommands(group string) []string {
	var names []string
	for n := range commands {
		if strings.HasPrefix(n, group+" ") {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return names
}

// runGroup handles "kfuzz group [args]" when no command of group matched:
// with no args it lists the group's commands on stdout and succeeds;
// otherwise args[0] names no command of group, and the list goes to stderr
// after an error.
func runGroup(e *env, group string, args []string) int {
	if len(args) == 0 {
		printGroup(e.stdout, group)
		return 0
	}
	fmt.Fprintf(e.stderr, "kfuzz %s: unknown subcommand %q\n\n", group, args[0])
	printGroup(e.stderr, group)
	return 2
}

// printGroup writes the usage of a command group and its commands to w.
func printGroup(w io.Writer, group string) {
	fmt.Fprintf(w, "Usage:\n\n\tkfuzz %s <command> [arguments]\n\nCommands:\n\n", group)
	for _, n := range subcommands(group) {
		fmt.Fprintf(w, "\t%-10s %s\n", strings.TrimPrefix(n, group+" "), commands[n].short)
	}
	fmt.Fprintf(w, "\nRun 'kfuzz help %s <command>' for the flags of a command.\n", group)
}

func printHelp(w io.Writer) {
	fmt.Fprintf(w, "kfuzz makes go test -fuzz grammar-aware.\n\nUsage:\n\n\tkfuzz <command> [arguments]\n\nCommands:\n\n")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "\t%-16s %s\n", n, commands[n].short)
	}
	fmt.Fprintf(w, "\nRun 'kfuzz help <command>' for the flags of a command, 'kfuzz <group>'\n(e.g. kfuzz isla) for the commands of a group.\n")
}

// newFlagSet returns a flag set for c whose usage message names the command.
func newFlagSet(e *env, c *command) *flag.FlagSet {
	fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() {
		fmt.Fprintf(e.stderr, "usage: kfuzz %s %s\n\n%s\n\nFlags:\n", c.name, c.usage, c.short)
		fs.PrintDefaults()
	}
	return fs
}

// parseFlags parses args with fs, allowing flags after positional arguments
// ("kfuzz parse FILE -tree"), and returns the positional arguments. Everything
// after a lone "--" is positional.
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	var tail []string
	for i, a := range args {
		if a == "--" {
			args, tail = args[:i], args[i+1:]
			break
		}
	}
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, err
			}
			return nil, errUsage
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return append(pos, tail...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}
