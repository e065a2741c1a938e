module github.com/seed72891827/kfuzz

go 1.25.0

require (
	golang.org/x/mod v0.38.0
	golang.org/x/sys v0.47.0
	golang.org/x/term v0.40.0
	golang.org/x/tools v0.48.0
)

require golang.org/x/sync v0.22.0 // indirect
