module github.com/seed72891827/kfuzz/examples/thirdparty

go 1.25.0

replace github.com/seed72891827/kfuzz => ../..

require (
	github.com/goccy/go-json v0.12.0
	github.com/seed72891827/kfuzz v0.0.0
	github.com/tidwall/gjson v1.20.0
)

require (
	github.com/tidwall/match v1.1.1 // indirect
	github.com/tidwall/pretty v1.2.0 // indirect
	golang.org/x/sys v0.47.0 // indirect
)
