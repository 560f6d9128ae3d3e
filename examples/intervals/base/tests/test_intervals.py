import unittest

from intervals import covers, merge_ranges


class MergeRangesTest(unittest.TestCase):
    def test_overlapping(self):
        self.assertEqual(merge_ranges([(0, 4), (3, 7)]), [(0, 7)])

    def test_disjoint(self):
        self.assertEqual(merge_ranges([(0, 1), (4, 6)]), [(0, 1), (4, 6)])

    def test_empty(self):
        self.assertEqual(merge_ranges([]), [])


class CoversTest(unittest.TestCase):
    def test_end_is_open(self):
        self.assertFalse(covers([(0, 2)], 2))


if __name__ == "__main__":
    unittest.main()
