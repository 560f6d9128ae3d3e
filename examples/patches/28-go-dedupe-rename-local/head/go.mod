module example.com/batch

go 1.22
