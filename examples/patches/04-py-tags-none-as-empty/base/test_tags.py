import unittest

from tags import normalize_tags


class NormalizeTagsTest(unittest.TestCase):
    def test_trim_and_lower(self):
        self.assertEqual(normalize_tags([" Go ", "python"]), ["go", "python"])

    def test_repeats(self):
        self.assertEqual(normalize_tags(["a", "A", "", "b"]), ["a", "b"])

    def test_empty(self):
        self.assertEqual(normalize_tags([]), [])


if __name__ == "__main__":
    unittest.main()
