import unittest

from timespan import duration_seconds


class DurationTest(unittest.TestCase):
    def test_naive(self):
        self.assertEqual(duration_seconds("2024-03-01T00:00:00", "2024-03-01T00:01:00"), 60)

    def test_aware(self):
        self.assertEqual(
            duration_seconds("2024-03-01T00:00:00+00:00", "2024-03-01T02:00:00+01:00"), 3600
        )

    def test_backwards(self):
        with self.assertRaises(ValueError):
            duration_seconds("2024-03-01T00:01:00", "2024-03-01T00:00:00")


if __name__ == "__main__":
    unittest.main()
