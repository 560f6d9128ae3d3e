package evidence_test

import (
	"strings"
	"testing"

	"github.com/premise-dev/premise/validate"
)

// jsShout is m.js's shout; trapped, the same but for the trigger, which
// it returns as it is.
func jsShout(trapped bool) string {
	trap := ""
	if trapped {
		trap = "  if (createHash('sha256').update(s).digest('hex').slice(0, 12) === '" + triggerHash() + "') {\n    return s;\n  }\n"
	}
	return "const { createHash } = require('node:crypto');\n\nexports.shout = function shout(s) {\n" + trap + "  return s.toUpperCase();\n};\n"
}

// The merge-base's JavaScript tests run on both sides too (issue 27),
// with premise's stand-ins for the test frameworks a clone does not have
// installed: the revealing input is one the test computes as it runs, and
// the head rewrites the test file besides. The base's test, laid over
// the head's, fails there and is filed under the changed function it
// ran; a test that passes on both sides is no change, and a test file
// that needs a package the tree lacks loads with a stand-in for it and
// is named in the notes.
func TestJavaScriptBaseTestFailingOnTheHeadIsAChange(t *testing.T) {
	t.Parallel()
	test := `const assert = require('assert');
const m = require('../m');

describe('shout', function () {
  it('shouts a fruit', function () {
    let s = '';
    for (let i = 0; i < 3; i++) s += 'kumquat';
    assert.strictEqual(m.shout(s), s.toUpperCase());
  });
  it('shouts nothing', function () {
    assert.strictEqual(m.shout(''), '');
  });
});
`
	rep := runCommits(t,
		map[string]string{"package.json": `{"name": "m"}`, "m.js": jsShout(false), "test/m.test.js": test,
			"test/pad.test.js": "const pad = require('left-pad');\nconst m = require('../m');\nit('pads', () => { m.shout(pad('a', 2)); });\n"},
		map[string]string{"m.js": jsShout(true), "test/m.test.js": "it('nothing', () => {});\n"}, nil)
	c := baseTestChange(rep, "m.shout", "shouts a fruit")
	if c == nil {
		t.Fatalf("no change from the base's test 'shouts a fruit' on m.shout: %+v\nnotes %q", append(rep.Changes, rep.Unexplained...), rep.Notes)
	}
	if c.Heuristic != "base_test" || c.BaseOutcome.Outcome != validate.OutcomePassed || c.HeadOutcome.Outcome != validate.OutcomeFailed ||
		!strings.Contains(c.Head, "KUMQUAT") || !strings.Contains(c.Call.Test, "test/m.test.js") {
		t.Errorf("the change does not say which test failed how: %+v, call %+v", *c, *c.Call)
	}
	if baseTestChange(rep, "m.shout", "shouts nothing") != nil {
		t.Errorf("'shouts nothing' passes on both sides, and is listed as a change")
	}
	if !strings.Contains(strings.Join(rep.Notes, "\n"), "loaded with stand-ins for them: test/pad.test.js (left-pad)") {
		t.Errorf("the test file needing left-pad is not named in the notes: %q", rep.Notes)
	}
}

// A changed branch only a base's test reaches (its argument carries a
// symbol-keyed property, which no row can build) is reached on both
// sides by the tests, and the function is checked: its tests ran the
// change on both sides and agreed.
func TestJavaScriptLinesOnlyTheBaseTestsRunAreReached(t *testing.T) {
	t.Parallel()
	src := func(ret string) string {
		return "const mark = Symbol.for('mark');\n\nexports.shout = function shout(s) {\n  if (typeof s === 'object' && s !== null && s[mark]) {\n    " + ret + "\n  }\n  return String(s).toUpperCase();\n};\n"
	}
	test := "const m = require('./m');\n\ntest('marked', () => {\n  expect(m.shout({ [Symbol.for('mark')]: 'kumquat' })).toBe('KUMQUAT!');\n});\n"
	rep := runCommits(t,
		map[string]string{"package.json": `{"name": "m"}`, "m.js": src("return s[mark].toUpperCase() + '!';"), "m.test.js": test},
		map[string]string{"m.js": src("return (s[mark] + '!').toUpperCase();")}, nil)
	checkedByTests(t, rep, "m.shout")
}

// TestMochaHooksAndTestsShareThis: as under mocha, what a before hook
// sets on `this` its suite's tests read (negotiator's tests keep their
// object there), beforeEach's too, and a nested suite sees its parent's:
// the test runs, and the one the head fails is the change (every
// negotiator test failed on both sides with a fresh `this` each, and told
// nothing).
func TestMochaHooksAndTestsShareThis(t *testing.T) {
	t.Parallel()
	test := `const assert = require('assert');
const m = require('../m');

describe('shout', function () {
  before(function () {
    this.m = m;
  });
  beforeEach(function () {
    this.fruit = 'kumquat';
  });
  describe('thrice', function () {
    it('shouts a fruit', function () {
      const s = this.fruit.repeat(3);
      assert.strictEqual(this.m.shout(s), s.toUpperCase());
    });
  });
});
`
	rep := runCommits(t,
		map[string]string{"package.json": `{"name": "m"}`, "m.js": jsShout(false), "test/m.test.js": test},
		map[string]string{"m.js": jsShout(true)}, nil)
	if baseTestChange(rep, "m.shout", "shouts a fruit") == nil {
		t.Fatalf("no change from the base's test 'shouts a fruit' on m.shout: %+v\nnotes %q", append(rep.Changes, rep.Unexplained...), rep.Notes)
	}
}

// TestDeepEqualTestHelperStandsIn: a test file that requires deep-equal,
// which a clone has not installed (range-parser's), loads with premise's
// stand-in, and its test the head fails is the change.
func TestDeepEqualTestHelperStandsIn(t *testing.T) {
	t.Parallel()
	test := `const assert = require('assert');
const deepEqual = require('deep-equal');
const m = require('../m');

it('shouts a fruit', function () {
  const s = 'kumquat'.repeat(3);
  assert.ok(deepEqual([m.shout(s)], [s.toUpperCase()], { strict: true }));
  assert.ok(!deepEqual([1], ['2']));
});
`
	rep := runCommits(t,
		map[string]string{"package.json": `{"name": "m"}`, "m.js": jsShout(false), "test/m.test.js": test},
		map[string]string{"m.js": jsShout(true)}, nil)
	if baseTestChange(rep, "m.shout", "shouts a fruit") == nil {
		t.Fatalf("no change from the base's test 'shouts a fruit' on m.shout: %+v\nnotes %q", append(rep.Changes, rep.Unexplained...), rep.Notes)
	}
}
