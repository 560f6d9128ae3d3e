module example.com/maps

go 1.22
