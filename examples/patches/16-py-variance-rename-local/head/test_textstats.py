import unittest

import textstats


class VarianceTest(unittest.TestCase):
    def test_variance(self):
        self.assertEqual(textstats.variance([2, 4, 4, 4, 5, 5, 7, 9]), 4)

    def test_constant(self):
        self.assertEqual(textstats.variance([3, 3, 3]), 0)


if __name__ == "__main__":
    unittest.main()
