import unittest

from summary import describe


class DescribeTest(unittest.TestCase):
    def test_describe(self):
        self.assertEqual(
            describe([3, 1, 2]), {"min": 1, "max": 3, "mean": 2, "spread": 2}
        )


if __name__ == "__main__":
    unittest.main()
