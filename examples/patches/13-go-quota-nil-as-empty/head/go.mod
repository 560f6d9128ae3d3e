module example.com/quota

go 1.22
