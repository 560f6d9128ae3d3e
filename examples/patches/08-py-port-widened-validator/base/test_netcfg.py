import unittest

from netcfg import listen_address, parse_port


class ParsePortTest(unittest.TestCase):
    def test_valid(self):
        self.assertEqual(parse_port(" 443 "), 443)

    def test_too_large(self):
        with self.assertRaises(ValueError):
            parse_port("70000")

    def test_default(self):
        self.assertEqual(listen_address("localhost", None), "localhost:8080")


if __name__ == "__main__":
    unittest.main()
