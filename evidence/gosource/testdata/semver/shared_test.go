package semver

// sharedTests is a table declared in one test file and ranged over in
// another.
var sharedTests = []struct {
	in   string
	want int
}{
	{"1.0", 1},
	{"2.0", 2},
}

const basicJSON = `{"a":1}`
