import unittest

import textstats


class TextstatsTest(unittest.TestCase):
    def test_mean(self):
        self.assertEqual(textstats.mean([1, 2, 3]), 2)

    def test_moving_average(self):
        self.assertEqual(textstats.moving_average([2, 4, 6, 8], 2)[:2], [3, 5])

    def test_windows(self):
        self.assertEqual(textstats.windows([1, 2, 3, 4], 3)[0], [1, 2, 3])


if __name__ == "__main__":
    unittest.main()
