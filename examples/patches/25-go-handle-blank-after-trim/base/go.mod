module example.com/social

go 1.22
