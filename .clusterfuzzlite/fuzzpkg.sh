#!/usr/bin/env bash
# usage: fuzzpkg.sh PKGDIR FuzzX
#
# Prepares the fuzz test FuzzX of the package in PKGDIR (relative to the
# current directory, a copy of the module that may be changed) for
# go-118-fuzz-build, and prints the package directory to build it from.
#
# go build ignores _test.go files, and go-118-fuzz-build refuses a fuzz test
# in an external test package (package x_test next to package x). As
# OSS-Fuzz projects do, the test files are renamed at build time: those of
# an external test package are copied into a package directory of their own,
# PKGDIR/ossfuzz_FuzzX (it imports the package under test as before), and
# those of an internal one are renamed in place, so that helpers in other
# test files are compiled too.
set -euo pipefail
dir=$1
fuzz=$2
file=$(grep -l "^func $fuzz(" "$dir"/*_test.go | head -1 || true)
if [ -z "$file" ]; then
	echo "fuzzpkg.sh: no func $fuzz in $dir/*_test.go" >&2
	exit 1
fi
pkg=$(sed -n 's/^package \([A-Za-z0-9_]*\).*/\1/p' "$file" | head -1)
if [[ $pkg == *_test ]]; then
	new="$dir/ossfuzz_$fuzz"
	mkdir -p "$new"
	for f in "$dir"/*_test.go; do
		if grep -q "^package $pkg\b" "$f"; then
			cp "$f" "$new/$(basename "${f%_test.go}")_fuzz.go"
		fi
	done
	echo "$new"
else
	for f in "$dir"/*_test.go; do
		mv "$f" "${f%_test.go}_test_fuzz.go"
	done
	echo "$dir"
fi
