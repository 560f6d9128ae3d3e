import unittest

from intervals import merge_ranges, total_length


class MergeRangesTest(unittest.TestCase):
    def test_overlap(self):
        self.assertEqual(merge_ranges([[0, 4], [3, 7]]), [[0, 7]])

    def test_disjoint(self):
        self.assertEqual(merge_ranges([[0, 1], [4, 6]]), [[0, 1], [4, 6]])

    def test_total_length(self):
        self.assertEqual(total_length([[0, 4], [3, 7], [10, 11]]), 8)


if __name__ == "__main__":
    unittest.main()
