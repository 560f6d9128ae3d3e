import unittest

from httpmeta.headers import content_length, parse_headers


class ParseHeadersTest(unittest.TestCase):
    def test_parse(self):
        self.assertEqual(
            parse_headers(["Host: example.com", "Accept: */*"]),
            {"host": "example.com", "accept": "*/*"},
        )

    def test_content_length(self):
        self.assertEqual(content_length(["Content-Length: 12"]), 12)

    def test_bad_line(self):
        with self.assertRaises(ValueError):
            parse_headers(["no colon here"])


if __name__ == "__main__":
    unittest.main()
