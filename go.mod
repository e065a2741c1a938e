module github.com/seed72891827/kfuzz

go 1.25.0
