import unittest

from grades import letter, report


class LetterTest(unittest.TestCase):
    def test_letters(self):
        self.assertEqual([letter(s) for s in (95, 85, 75, 65, 10)], list("ABCDF"))

    def test_report(self):
        self.assertEqual(report({"ana": 91}), {"ana": "A"})


if __name__ == "__main__":
    unittest.main()
