package gate

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The base's Python tests run with one string hash seed on every side and
// every run: a test that depends on a set's order must not pass on the
// base and fail on the head by the seed alone (a false change).
func TestPythonTestsPinTheHashSeed(t *testing.T) {
	t.Parallel()
	names := "def names():\n    return list({'kumquat', 'apple', 'fig', 'pear', 'plum', 'lime', 'date'})\n"
	// The first name under the pinned seed; under another seed it is
	// most often another.
	first := exec.Command("python3", "-c", "exec(open(0).read()); print(names()[0])")
	first.Stdin = strings.NewReader(names)
	first.Env = append(first.Environ(), pinnedHashSeed)
	want, err := first.Output()
	if err != nil {
		t.Fatal(err)
	}
	test := "import m\n\n\ndef test_order():\n    assert m.names()[0] == '" + strings.TrimSpace(string(want)) + "'\n"
	dir := writeTree(t, map[string]string{"m.py": names, "tests/test_m.py": test})
	for i := 0; i < 4; i++ {
		run := PythonTests(context.Background(), PyTests{Dir: dir, BaseDir: dir, Tests: []string{"tests/test_m.py"}, Seconds: 20})
		if got := run.Tests["tests/test_m.py::test_order"].Outcome; got != "passed" {
			t.Fatalf("run %d: test_order %q %s, want passed every time", i, got, run.Err)
		}
	}
}

// Most pytest suites build their inputs in fixtures: fixtures that take
// other fixtures, fixtures with params (one test call per param, the
// param on request.param), autouse fixtures, usefixtures, and pytest's
// own monkeypatch, capsys and tmp_path. premise's pytest makes them all,
// so those tests run: and a test whose fixture chain it cannot make is
// left out, never failed.
func TestPythonTestsMakeFixtures(t *testing.T) {
	t.Parallel()
	conftest := `import os
import pytest

SEEN = []


@pytest.fixture(params=["ab", "cd", "ef"])
def word(request):
    return request.param


@pytest.fixture
def shouted(word):
    yield word.upper()
    SEEN.append(word)


@pytest.fixture(autouse=True)
def clean_env(monkeypatch):
    monkeypatch.setenv("PREMISE_FIXTURE", "on")


@pytest.fixture(name="renamed")
def _renamed():
    return 7


@pytest.fixture
def needs_unknown(no_such_fixture):
    return 1
`
	test := `import os
import pytest

import m


def test_shout(shouted, word):
    assert m.shout(word) == shouted


def test_env():
    assert os.environ["PREMISE_FIXTURE"] == "on"


def test_printed(capsys, tmp_path):
    print("hi")
    (tmp_path / "f").write_text("x")
    assert capsys.readouterr().out == "hi\n"


def test_renamed(renamed):
    assert renamed == 7


@pytest.mark.usefixtures("clean_env")
def test_used():
    assert os.environ["PREMISE_FIXTURE"] == "on"


def test_unknown(needs_unknown):
    assert False


def test_patched(monkeypatch):
    monkeypatch.setattr("m.shout", lambda s: "patched")
    assert m.shout("x") == "patched"


def test_unpatched():
    assert m.shout("x") == "X"
`
	dir := writeTree(t, map[string]string{"m.py": "def shout(s):\n    return s.upper()\n", "tests/conftest.py": conftest, "tests/test_m.py": test})
	run := PythonTests(context.Background(), PyTests{Dir: dir, BaseDir: dir, Tests: []string{"tests/test_m.py"}, Seconds: 20})
	if run.Err != "" {
		t.Fatal(run.Err)
	}
	want := []string{"test_env", "test_patched", "test_printed", "test_renamed",
		"test_shout[word0]", "test_shout[word1]", "test_shout[word2]", "test_unpatched", "test_used"}
	var got []string
	for _, id := range run.Order {
		got = append(got, strings.TrimPrefix(id, "tests/test_m.py::"))
		if o := run.Tests[id].Outcome; o != "passed" {
			t.Errorf("%s: %s, want passed", id, o)
		}
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("ran %v, want %v (test_unknown left out: its fixture cannot be made)", got, want)
	}
}

// Suites that set themselves up in a temporary directory use pytest's
// tmpdir (a py.path.local: join, strpath, write, mkdir below it, as_cwd)
// and the session factories, often in an autouse fixture: without them
// every test of the module was left out (isort's main test file). So are
// caplog, recwarn and capfd made, the other built-in fixtures suites use
// most, and pytest-mock's mocker, each patch undone after its test.
func TestPythonTestsMakeTemporaryDirectories(t *testing.T) {
	t.Parallel()
	test := `import os
import pytest

import m


@pytest.fixture(scope="session", autouse=True)
def settings_dir(tmpdir_factory):
    d = tmpdir_factory.mktemp("config")
    d.join("settings.cfg").write("x = 1\n")
    with d.as_cwd():
        yield d.strpath


def test_in_settings_dir():
    assert open("settings.cfg").read() == "x = 1\n"
    assert m.shout("a") == "A"


def test_tmpdir(tmpdir):
    sub = tmpdir.mkdir("sub")
    sub.join("f.txt").write_binary(b"hi")
    assert sub.join("f.txt").read_binary() == b"hi" and sub.join("f.txt").check(file=1)


def test_tmp_path_factory(tmp_path_factory):
    assert tmp_path_factory.mktemp("d").is_dir()


def test_caplog(caplog):
    import logging
    with caplog.at_level(logging.INFO):
        logging.getLogger("m").info("said %s", "hi")
    assert caplog.messages == ["said hi"] and caplog.record_tuples == [("m", logging.INFO, "said hi")]


def test_recwarn(recwarn):
    import warnings
    warnings.warn("old", DeprecationWarning)
    assert len(recwarn) == 1 and recwarn.pop(DeprecationWarning).category is DeprecationWarning


def test_capfd(capfd):
    print("out")
    assert capfd.readouterr().out == "out\n"


def test_mocker(mocker):
    mocker.patch("m.shout", return_value="mocked")
    assert m.shout("a") == "mocked"


def test_unmocked():
    assert m.shout("a") == "A"
`
	dir := writeTree(t, map[string]string{"m.py": "def shout(s):\n    return s.upper()\n", "tests/test_m.py": test})
	run := PythonTests(context.Background(), PyTests{Dir: dir, BaseDir: dir, Tests: []string{"tests/test_m.py"}, Seconds: 20})
	if run.Err != "" {
		t.Fatal(run.Err)
	}
	for _, name := range []string{"test_in_settings_dir", "test_tmpdir", "test_tmp_path_factory", "test_caplog", "test_recwarn", "test_capfd", "test_mocker", "test_unmocked"} {
		if o := run.Tests["tests/test_m.py::"+name].Outcome; o != "passed" {
			t.Errorf("%s: %q, want passed (ran %v)", name, o, run.Order)
		}
	}
}

// The run has a budget and a large test module may spend it: in each
// module the tests whose names hold a word of the change (the changed
// function's, its module's) run first, functions, test classes and
// unittest cases alike.
func TestPythonTestsRunTestsNamedAfterTheChangeFirst(t *testing.T) {
	t.Parallel()
	test := `import unittest

import m


def test_a_other():
    assert m.shout("a") == "A"


def test_z_simplify():
    assert m.shout("b") == "B"


class TestAlpha:
    def test_x(self):
        pass


class TestBeta:
    def test_simplify_more(self):
        pass


class Cases(unittest.TestCase):
    def test_a(self):
        pass

    def test_simplify_case(self):
        pass
`
	dir := writeTree(t, map[string]string{"m.py": "def shout(s):\n    return s.upper()\n", "tests/test_m.py": test})
	run := PythonTests(context.Background(), PyTests{Dir: dir, BaseDir: dir, Tests: []string{"tests/test_m.py"}, Seconds: 20, First: []string{"simplify"}})
	var got []string
	for _, id := range run.Order {
		got = append(got, strings.TrimPrefix(id, "tests/test_m.py::"))
	}
	want := []string{"Cases::test_simplify_case", "Cases::test_a", "TestBeta::test_simplify_more", "test_z_simplify", "TestAlpha::test_x", "test_a_other"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("ran %v, want %v", got, want)
	}
}

// A test module that imports a package this machine lacks (lxml, sh,
// hypothesis: a test dependency) still runs its other tests: the package
// gets a stand-in whose every use raises ImportError (a test it decorates
// fails so when run; what it builds as the module loads, strategies in a
// decorator's arguments, does not stop the module), and the run says
// which.
// A module of the tree itself that is missing is not stood in for.
func TestPythonTestsStandInForAbsentModules(t *testing.T) {
	t.Parallel()
	test := `import premise_absent_pkg.sub
from premise_absent_lib import Thing
from premise_absent_hyp import given, strategies as st

import m


class Sub(Thing):
    pass


@given(st.text(), st.lists(st.integers()))
def test_property(s, xs):
    assert m.shout(s) == s.upper()


def test_uses_it():
    assert premise_absent_pkg.sub.parse("x")


def test_own():
    assert m.shout("x") == "X"
`
	broken := "import m.missing\n\n\ndef test_x():\n    pass\n"
	dir := writeTree(t, map[string]string{"m.py": "def shout(s):\n    return s.upper()\n", "tests/test_m.py": test,
		"tests/test_broken.py": broken})
	run := PythonTests(context.Background(), PyTests{Dir: dir, BaseDir: dir, Tests: []string{"tests/test_broken.py", "tests/test_m.py"}, Seconds: 20})
	if run.Err != "" {
		t.Fatal(run.Err)
	}
	if o := run.Tests["tests/test_m.py::test_own"].Outcome; o != "passed" {
		t.Errorf("test_own: %q, want passed: it uses nothing the machine lacks", o)
	}
	for _, name := range []string{"test_uses_it", "test_property"} {
		if o := run.Tests["tests/test_m.py::"+name].Outcome; !strings.Contains(o, "ImportError") {
			t.Errorf("%s: %q, want failed with ImportError", name, o)
		}
	}
	if strings.Join(run.Absent, " ") != "premise_absent_pkg premise_absent_pkg.sub premise_absent_lib premise_absent_hyp" {
		t.Errorf("absent %v, want the two modules stood in for", run.Absent)
	}
	if o := run.Tests["tests/test_broken.py"].Outcome; !strings.Contains(o, "does not load") {
		t.Errorf("test_broken.py: %q, want it not to load: its missing module is the tree's", o)
	}
}

// On the head the merge-base's tests are read from the merge-base's copy,
// which the head's box keeps read-only. A test that writes beside its own
// file (isort's writes a sorted copy next to the module a path relative to
// the test names) passed on the base and failed on the head with a
// read-only file system: a false change on a patch that changed nothing
// it tests. It passes on both sides.
func TestPythonTestsWriteBesideTheBasesTestsOnTheHead(t *testing.T) {
	t.Parallel()
	needBox(t, Sealed(), "mount namespace")
	test := "import os\nimport m\n\nHERE = os.path.dirname(os.path.abspath(__file__))\n\n\n" +
		"def test_writes_beside():\n    with open(os.path.join(HERE, '..', 'm.py.sorted'), 'w') as f:\n        f.write(m.shout('ab'))\n    assert m.shout('ab') == 'AB'\n"
	base := writeTree(t, map[string]string{"m.py": "def shout(s):\n    return s.upper()\n", "tests/test_m.py": test})
	head := writeTree(t, map[string]string{"m.py": "def shout(s):\n    # louder\n    return s.upper()\n", "tests/test_m.py": test})
	for _, side := range []struct{ name, dir string }{{"base", base}, {"head", head}} {
		run := PythonTests(context.Background(), PyTests{Dir: side.dir, BaseDir: base, Tests: []string{"tests/test_m.py"}, Seconds: 20})
		if got := run.Tests["tests/test_m.py::test_writes_beside"]; got.Outcome != "passed" {
			t.Errorf("on the %s: test_writes_beside %+v %s, want passed", side.name, got, run.Err)
		}
	}
	if _, err := os.Stat(filepath.Join(base, "m.py.sorted")); err != nil {
		t.Errorf("the base's own run wrote nothing beside its tests: %v", err)
	}
}

// A failure that names a file by its path names it from the top of the
// tree, on either side: premise's copies are new directories every run,
// and the same failure must read the same in the register and the draft
// each time.
func TestPythonTestsFailureNamesFilesFromTheTop(t *testing.T) {
	t.Parallel()
	test := "import os\nimport m\n\n\ndef test_where():\n    assert m.shout('ab') == 'ab', os.path.abspath(__file__) + ' ' + os.path.abspath(m.__file__)\n"
	base := writeTree(t, map[string]string{"m.py": "def shout(s):\n    return s.upper()\n", "tests/test_m.py": test})
	head := writeTree(t, map[string]string{"m.py": "def shout(s):\n    return s.upper() + '!'\n", "tests/test_m.py": test})
	for _, side := range []struct{ name, dir string }{{"base", base}, {"head", head}} {
		run := PythonTests(context.Background(), PyTests{Dir: side.dir, BaseDir: base, Tests: []string{"tests/test_m.py"}, Seconds: 20})
		got := run.Tests["tests/test_m.py::test_where"].Outcome
		if !strings.HasPrefix(got, "failed") || !strings.Contains(got, "tests/test_m.py m.py") || strings.Contains(got, os.TempDir()) {
			t.Errorf("on the %s: %q, want the failure with its files named from the top of the tree", side.name, got)
		}
	}
}

// A command-line tool's tests parse the command line as the test run has
// it: under pytest with no arguments, an argparse parser built without a
// list reads none, and names the program after pytest. premise's run of
// the base's tests passes them too; with its own arguments on the command
// line every such test failed on the base and was left out, with the
// change it would have shown.
func TestPythonTestsSeeTheCommandLineOfAPlainRun(t *testing.T) {
	t.Parallel()
	cli := "import argparse\n\n\ndef parser():\n    p = argparse.ArgumentParser()\n    p.add_argument('--level', type=int, default=1)\n    return p\n"
	test := "import cli\n\n\ndef test_defaults():\n    assert cli.parser().parse_args().level == 1\n\n\n" +
		"def test_prog():\n    assert cli.parser().prog == 'pytest'\n"
	dir := writeTree(t, map[string]string{"cli.py": cli, "tests/test_cli.py": test})
	run := PythonTests(context.Background(), PyTests{Dir: dir, BaseDir: dir, Tests: []string{"tests/test_cli.py"}, Seconds: 20})
	for _, id := range []string{"tests/test_cli.py::test_defaults", "tests/test_cli.py::test_prog"} {
		if got := run.Tests[id].Outcome; got != "passed" {
			t.Errorf("%s %q %s, want passed as under pytest", id, got, run.Err)
		}
	}
}
