#!/bin/bash -eu
# ClusterFuzzLite / OSS-Fuzz build of kfuzz's example fuzz targets into
# libFuzzer binaries in $OUT, each with its seed corpus from testdata/fuzz.
# .ci/ossfuzz-build does the same outside the build image.

# The version of go-118-fuzz-build's testing shim, which the rewritten fuzz
# tests import (the image provides go-118-fuzz-build itself).
G118=v0.0.0-20250520111509-a70c2aa677fa

cd "$SRC/kfuzz"
go get "github.com/AdamKorcz/go-118-fuzz-build/testing@$G118"
go build -o "$WORK/kfuzz" ./cmd/kfuzz

module=$(go list -m)
for target in examples/calc:FuzzCalc examples/json:FuzzJSON; do
	dir=${target%%:*}
	fuzz=${target##*:}
	pkgdir=$(bash .clusterfuzzlite/fuzzpkg.sh "$dir" "$fuzz")
	compile_native_go_fuzzer "$module/$pkgdir" "$fuzz" "$fuzz"
	seeds="$WORK/seeds/$fuzz"
	"$WORK/kfuzz" corpus export -o "$seeds" "$dir/testdata/fuzz/$fuzz"
	(cd "$seeds" && zip -q -r "$OUT/${fuzz}_seed_corpus.zip" .)
done
