module github.com/coopshader/coop

go 1.26
