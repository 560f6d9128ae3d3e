module example.com/sortedset

go 1.22
