// Package semvercheck checks that golang.org/x/mod/semver treats a version
// string consistently.
package semvercheck

import (
	"fmt"

	"golang.org/x/mod/semver"
)

// known holds versions checked while the package is initialized, so that
// coverage outside the fuzz test's inputs is measured too.
var known = []string{"v1.0.0", "v2.1.0-rc.1"}

func init() {
	for _, v := range known {
		if !semver.IsValid(v) {
			panic("invalid known version " + v)
		}
	}
}

// Check returns an error if semver's functions disagree about v.
func Check(v string) error {
	if !semver.IsValid(v) {
		if c := semver.Canonical(v); c != "" {
			return fmt.Errorf("invalid %q has the canonical form %q", v, c)
		}
		return nil
	}
	c := semver.Canonical(v)
	switch semver.Major(v) {
	case "v0", "v1":
		// Nothing more to check: an empty case body is a block without
		// extent.
	default:
		if semver.Compare(v, "v2") < 0 {
			return fmt.Errorf("%q is below v2 with major %s", v, semver.Major(v))
		}
	}
	if semver.Compare(v, c) != 0 {
		return fmt.Errorf("%q differs from its canonical form %q", v, c)
	}
	if semver.Major(v) == "" || semver.MajorMinor(c) == "" {
		return fmt.Errorf("%q has no major version", v)
	}
	if p := semver.Prerelease(v); p != "" && semver.Compare(v, semver.MajorMinor(v)+".0") == 0 {
		return fmt.Errorf("%q with prerelease %q equals its release", v, p)
	}
	list := []string{v, "v1.0.0", semver.Build(v)}
	semver.Sort(list)
	if semver.Compare(semver.Max(list[0], list[1]), list[1]) != 0 {
		return fmt.Errorf("Sort and Max disagree on %q", list)
	}
	return nil
}
