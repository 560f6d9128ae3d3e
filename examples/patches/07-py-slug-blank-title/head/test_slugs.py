import unittest

from slugs import slugify


class SlugifyTest(unittest.TestCase):
    def test_punctuation(self):
        self.assertEqual(slugify("Hello, World!"), "hello-world")

    def test_spaces(self):
        self.assertEqual(slugify("  Go 1.22 release notes "), "go-1-22-release-notes")

    def test_empty(self):
        with self.assertRaises(ValueError):
            slugify("")


if __name__ == "__main__":
    unittest.main()
