module example.test/ensure

go 1.22
