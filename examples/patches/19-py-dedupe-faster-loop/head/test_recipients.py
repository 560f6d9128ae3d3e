import unittest

from recipients import dedupe, recipients


class DedupeTest(unittest.TestCase):
    def test_order_kept(self):
        self.assertEqual(dedupe(["b@x", "a@x", "b@x"]), ["b@x", "a@x"])

    def test_recipients(self):
        self.assertEqual(recipients(["a@x"], ["a@x", "c@x"]), ["a@x", "c@x"])


if __name__ == "__main__":
    unittest.main()
