module example.com/deploy

go 1.22
