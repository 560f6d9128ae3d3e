module example.com/search

go 1.22
