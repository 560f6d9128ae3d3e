module example.com/semver

go 1.22
